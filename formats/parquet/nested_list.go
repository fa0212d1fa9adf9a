package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/columnar"
)

// A LIST of numbers, booleans or strings (one leaf, one repeated level: the
// standard 3-level list, the legacy 2-level list and a bare repeated
// field) is by far the most common nested column, and arrow-go's record
// reader spends most of a scan of one finding record boundaries and
// building Arrow offsets and bitmaps that putArrow then converts again.
// listReader reads such a column from arrow-go's typed column reader
// instead (levels and values a few thousand at a time) and turns the
// levels into list ranges and validity in one pass, straight into the
// columnar vector:
//
//	rep 0                 a new row
//	def < defEmpty        the list is NULL
//	def == defEmpty       the list is empty
//	defEmpty < def < max  a NULL element
//	def == max            an element, the next value

// listFast routes lists of numbers to listReader; a variable only so that
// tests and benchmarks can compare with arrow-go's record reader.
var listFast = true

// listShape is what listReader needs of a column's schema.
type listShape struct {
	leaf     int   // the leaf column
	defEmpty int16 // definition level of an empty list
	maxDef   int16
	elem     columnar.Type
}

// listShapeOf returns the shape of the nested column whose top-level node
// is root and whose SQL type is t, or nil when it is not a list of
// numbers or booleans with one repeated level.
func listShapeOf(sc *schema.Schema, root schema.Node, leaves []int, t columnar.Type) *listShape {
	if t.ID != columnar.List || len(leaves) != 1 {
		return nil
	}
	col := sc.Column(leaves[0])
	if col.MaxRepetitionLevel() != 1 || !fastElem(t.Elem(), col.PhysicalType()) {
		return nil
	}
	// The definition level reached at the repeated node, counted from the
	// top-level field down to the leaf.
	var path []schema.Node
	for n := schema.Node(col.SchemaNode()); n != nil && n != root.Parent(); n = n.Parent() {
		path = append(path, n)
	}
	def := int16(0)
	for i := len(path) - 1; i >= 0; i-- {
		switch path[i].RepetitionType() {
		case parquet.Repetitions.Optional:
			def++
		case parquet.Repetitions.Repeated:
			return &listShape{leaf: leaves[0], defEmpty: def, maxDef: col.MaxDefinitionLevel(), elem: t.Elem()}
		}
	}
	return nil
}

// fastElem reports whether listReader decodes elements of SQL type t
// stored as phys: values that need no conversion but widening, and
// strings and blobs (copied out of the page).
func fastElem(t columnar.Type, phys parquet.Type) bool {
	switch t.ID {
	case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Uint8, columnar.Uint16, columnar.Uint32, columnar.Date:
		return phys == parquet.Types.Int32
	case columnar.Int64, columnar.Uint64:
		return phys == parquet.Types.Int64
	case columnar.Float32:
		return phys == parquet.Types.Float
	case columnar.Float64:
		return phys == parquet.Types.Double
	case columnar.Bool:
		return phys == parquet.Types.Boolean
	case columnar.Varchar, columnar.Blob:
		return phys == parquet.Types.ByteArray
	}
	return false
}

// listLevels is how many levels listReader reads at a time.
const listLevels = 4096

// levelStream is one leaf column chunk read a few thousand levels at a
// time: levels, and the values of the levels that define one.
type levelStream struct {
	rdr   file.ColumnChunkReader
	defs  []int16
	reps  []int16
	i32   []int32
	i64   []int64
	f32   []float32
	f64   []float64
	bools []bool
	ba    []parquet.ByteArray
	pos   int // next level of defs/reps
	end   int // levels read
	vpos  int // next value
	eof   bool
}

func (s *levelStream) reset(rdr file.ColumnChunkReader) {
	s.rdr = rdr
	s.pos, s.end, s.vpos, s.eof = 0, 0, 0, false
	if s.defs == nil {
		s.defs, s.reps = make([]int16, listLevels), make([]int16, listLevels)
	}
}

func (s *levelStream) close() {
	if s.rdr != nil {
		s.rdr.Close()
		s.rdr = nil
	}
}

// refill reads the next levels and their values (eof when none is left).
func (s *levelStream) refill() error {
	var total int64
	var err error
	switch rd := s.rdr.(type) {
	case *file.Int32ColumnChunkReader:
		s.i32 = grow(s.i32, listLevels)
		total, _, err = rd.ReadBatch(listLevels, s.i32, s.defs, s.reps)
	case *file.Int64ColumnChunkReader:
		s.i64 = grow(s.i64, listLevels)
		total, _, err = rd.ReadBatch(listLevels, s.i64, s.defs, s.reps)
	case *file.Float32ColumnChunkReader:
		s.f32 = grow(s.f32, listLevels)
		total, _, err = rd.ReadBatch(listLevels, s.f32, s.defs, s.reps)
	case *file.Float64ColumnChunkReader:
		s.f64 = grow(s.f64, listLevels)
		total, _, err = rd.ReadBatch(listLevels, s.f64, s.defs, s.reps)
	case *file.BooleanColumnChunkReader:
		s.bools = grow(s.bools, listLevels)
		total, _, err = rd.ReadBatch(listLevels, s.bools, s.defs, s.reps)
	case *file.ByteArrayColumnChunkReader:
		s.ba = grow(s.ba, listLevels)
		total, _, err = rd.ReadBatch(listLevels, s.ba, s.defs, s.reps)
	default:
		return fmt.Errorf("%w: nested leaf reader %T", ErrUnsupported, rd)
	}
	if err != nil {
		return asCorrupt(err)
	}
	s.pos, s.end, s.vpos, s.eof = 0, int(total), 0, total == 0
	return nil
}

// listReader reads one chunk of a column of listShape.
type listReader struct {
	shape *listShape
	levelStream
	slots []int32 // child rows of the values of the levels consumed so far
	vdone int     // values already stored
}

func (r *listReader) reset(shape *listShape, rdr file.ColumnChunkReader) {
	r.shape = shape
	r.levelStream.reset(rdr)
	r.slots, r.vdone = r.slots[:0], 0
}

// refill reads the next levels and their values.
func (r *listReader) refill() error {
	r.slots, r.vdone = r.slots[:0], 0
	return r.levelStream.refill()
}

// read decodes the next n rows into v (Reset to n rows by the caller) and
// returns how many it got: fewer only at the end of the chunk.
func (r *listReader) read(v *columnar.Vector, n int) (int, error) {
	kid := v.Kids[0]
	sh := r.shape
	rows := 0
	// Room for the elements of the levels left from the last batch (the
	// caller's Reset emptied the child).
	kid.Grow(v.KidLen + r.end - r.pos)
	kid.ExtendValid(v.KidLen + r.end - r.pos)
	for {
		if r.pos == r.end {
			r.store(kid)
			if err := r.refill(); err != nil {
				return 0, err
			}
			if r.eof {
				break
			}
			// Room for every element of these levels.
			kid.Grow(v.KidLen + r.end)
			kid.ExtendValid(v.KidLen + r.end)
		}
		rep, def := r.reps[r.pos], r.defs[r.pos]
		if rep == 0 {
			if rows == n {
				break // the next batch's row
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
		if def > sh.defEmpty {
			j := v.KidLen
			v.KidLen++
			if def == sh.maxDef {
				r.slots = append(r.slots, int32(j))
			} else {
				kid.SetNull(j, len(kid.Valid)*64+listLevels)
			}
		}
		r.pos++
	}
	r.store(kid)
	if rows > 0 {
		v.Ends[rows-1] = int32(v.KidLen)
	}
	return rows, nil
}

// store copies the values of the levels consumed since the last store to
// their child rows.
func (r *listReader) store(kid *columnar.Vector) {
	slots := r.slots[r.vdone:]
	if len(slots) == 0 {
		return
	}
	lo, hi := r.vdone, r.vdone+len(slots)
	r.vdone = hi
	switch r.rdr.(type) {
	case *file.Int32ColumnChunkReader:
		switch r.shape.elem.ID {
		case columnar.Uint8, columnar.Uint16, columnar.Uint32:
			for i, s := range slots {
				kid.Ints[s] = int64(uint32(r.i32[lo+i]))
			}
		default:
			storeNum(kid.Ints, r.i32[lo:hi], slots)
		}
	case *file.Int64ColumnChunkReader:
		if r.shape.elem.ID == columnar.Uint64 {
			for i, s := range slots {
				kid.Uints[s] = uint64(r.i64[lo+i])
			}
		} else {
			storeNum(kid.Ints, r.i64[lo:hi], slots)
		}
	case *file.Float32ColumnChunkReader:
		storeNum(kid.Floats, r.f32[lo:hi], slots)
	case *file.Float64ColumnChunkReader:
		storeNum(kid.Floats, r.f64[lo:hi], slots)
	case *file.BooleanColumnChunkReader:
		for i, s := range slots {
			kid.Bools[s] = r.bools[lo+i]
		}
	case *file.ByteArrayColumnChunkReader:
		// The values alias the page, which the next read reuses: copied,
		// into one allocation for these levels.
		size := 0
		for _, x := range r.ba[lo:hi] {
			size += len(x)
		}
		arena := make([]byte, 0, size)
		for i, s := range slots {
			at := len(arena)
			arena = append(arena, r.ba[lo+i]...)
			kid.Bytes[s] = arena[at:len(arena):len(arena)]
		}
	}
}

// storeNum stores src[i] at dst[slots[i]]; slots are increasing, and
// consecutive when no element is NULL, which is a plain converting copy.
func storeNum[T int32 | int64 | float32 | float64, D int64 | float64](dst []D, src []T, slots []int32) {
	first, last := int(slots[0]), int(slots[len(slots)-1])
	if last-first+1 == len(slots) {
		dst = dst[first : last+1]
		for i, x := range src[:len(dst)] {
			dst[i] = D(x)
		}
		return
	}
	for i, s := range slots {
		dst[s] = D(src[i])
	}
}
