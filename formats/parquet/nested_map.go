package parquet

import (
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/columnar"
)

// A MAP whose key is OPTIONAL (written by some Hive and Spark versions,
// e.g. parquet-testing's incorrect_map_schema.parquet) breaks the
// format's rule that keys are REQUIRED, and arrow-go's schema resolution
// refuses it; DuckDB reads it as a MAP. mapReader reads such a map of
// numbers, booleans or strings from the two leaves' typed column readers:
// the key's levels give the rows and entries as listReader's do, the
// value's levels (the same repetition) say which values are NULL. A NULL
// key reads as NULL.

// mapShape is what mapReader needs of a map column's schema.
type mapShape struct {
	key, val       int   // leaf columns
	defEmpty       int16 // definition level of an empty map
	keyDef, valDef int16 // definition levels of a present key, value
	keyT, valT     columnar.Type
}

// mapShapeOf returns the shape of top-level field root when it is a map
// annotated MAP or MAP_KEY_VALUE whose repeated group holds a key and a
// value leaf of types mapReader decodes, or nil.
func mapShapeOf(sc *schema.Schema, root schema.Node) *mapShape {
	g, ok := root.(*schema.GroupNode)
	if !ok || g.NumFields() != 1 {
		return nil
	}
	kv, ok := g.Field(0).(*schema.GroupNode)
	if !ok || kv.RepetitionType() != parquet.Repetitions.Repeated || kv.NumFields() != 2 {
		return nil
	}
	_, isMap := g.LogicalType().(schema.MapLogicalType)
	isMap = isMap || g.ConvertedType() == schema.ConvertedTypes.Map || g.ConvertedType() == schema.ConvertedTypes.MapKeyValue ||
		kv.ConvertedType() == schema.ConvertedTypes.MapKeyValue
	if !isMap {
		return nil
	}
	sh := &mapShape{key: sc.ColumnIndexByNode(kv.Field(0)), val: sc.ColumnIndexByNode(kv.Field(1))}
	if sh.key < 0 || sh.val < 0 {
		return nil
	}
	var okK, okV bool
	sh.keyT, sh.keyDef, okK = mapLeaf(sc.Column(sh.key))
	sh.valT, sh.valDef, okV = mapLeaf(sc.Column(sh.val))
	if !okK || !okV {
		return nil
	}
	if g.RepetitionType() == parquet.Repetitions.Optional {
		sh.defEmpty = 1
	} else if g.RepetitionType() != parquet.Repetitions.Required {
		return nil
	}
	return sh
}

// mapLeaf is the SQL type and full definition level of a map's key or
// value leaf, ok when mapReader decodes it.
func mapLeaf(col *schema.Column) (columnar.Type, int16, bool) {
	if col.MaxRepetitionLevel() != 1 {
		return columnar.Type{}, 0, false
	}
	c, err := mapColumn(col)
	if err != nil || !(fastElem(c.field.Type, col.PhysicalType()) || c.kind == kBytes && col.PhysicalType() == parquet.Types.ByteArray) {
		return columnar.Type{}, 0, false
	}
	return c.field.Type, col.MaxDefinitionLevel(), true
}

// mapReader reads one chunk of a map column of mapShape.
type mapReader struct {
	shape *mapShape
	k, v  levelStream
}

func (r *mapReader) reset(sh *mapShape, key, val file.ColumnChunkReader) {
	r.shape = sh
	r.k.reset(key)
	r.v.reset(val)
}

func (r *mapReader) close() {
	r.k.close()
	r.v.close()
}

// read decodes the next n rows into v (Reset to n rows by the caller) and
// returns how many it got: fewer only at the end of the chunk.
func (r *mapReader) read(v *columnar.Vector, n int) (int, error) {
	sh := r.shape
	entries := v.Kids[0]
	var arena []byte // byte payloads of this batch (values alias it)
	rows := 0
	for {
		if r.k.pos == r.k.end {
			if err := r.k.refill(); err != nil {
				return 0, err
			}
			if r.k.eof {
				break
			}
		}
		rep, def := r.k.reps[r.k.pos], r.k.defs[r.k.pos]
		if rep == 0 {
			if rows == n {
				break
			}
			if rows > 0 {
				v.Ends[rows-1] = int32(v.KidLen)
			}
			v.Starts[rows] = int32(v.KidLen)
			if def < sh.defEmpty {
				v.SetNull(rows, n)
			}
			rows++
		} else if rows == 0 {
			return 0, corruptf("a row starts with repetition level %d", rep)
		}
		if r.v.pos == r.v.end {
			if err := r.v.refill(); err != nil {
				return 0, err
			}
			if r.v.eof {
				return 0, corruptf("the map's value column ends before its key column")
			}
		}
		vdef := r.v.defs[r.v.pos]
		if def > sh.defEmpty {
			j := v.KidLen
			v.KidLen++
			entries.Grow(j + 1)
			keys, vals := entries.Kids[0], entries.Kids[1]
			keys.ExtendValid(j + 1)
			vals.ExtendValid(j + 1)
			if def == sh.keyDef {
				arena = r.k.put(keys, j, sh.keyT, arena)
			} else {
				keys.SetNull(j, 2*j+1)
			}
			if vdef == sh.valDef {
				arena = r.v.put(vals, j, sh.valT, arena)
			} else {
				vals.SetNull(j, 2*j+1)
			}
		}
		r.k.pos++
		r.v.pos++
	}
	if rows > 0 {
		v.Ends[rows-1] = int32(v.KidLen)
	}
	return rows, nil
}

// put stores the stream's next value at row j of dst (of type t); byte
// payloads are copied to arena, which it returns grown.
func (s *levelStream) put(dst *columnar.Vector, j int, t columnar.Type, arena []byte) []byte {
	k := s.vpos
	s.vpos++
	switch s.rdr.(type) {
	case *file.Int32ColumnChunkReader:
		switch t.ID {
		case columnar.Uint8, columnar.Uint16, columnar.Uint32:
			dst.Ints[j] = int64(uint32(s.i32[k]))
		default:
			dst.Ints[j] = int64(s.i32[k])
		}
	case *file.Int64ColumnChunkReader:
		if t.ID == columnar.Uint64 {
			dst.Uints[j] = uint64(s.i64[k])
		} else {
			dst.Ints[j] = s.i64[k]
		}
	case *file.Float32ColumnChunkReader:
		dst.Floats[j] = float64(s.f32[k])
	case *file.Float64ColumnChunkReader:
		dst.Floats[j] = s.f64[k]
	case *file.BooleanColumnChunkReader:
		dst.Bools[j] = s.bools[k]
	case *file.ByteArrayColumnChunkReader:
		start := len(arena)
		arena = append(arena, s.ba[k]...)
		dst.Bytes[j] = arena[start:len(arena):len(arena)]
	}
	return arena
}
