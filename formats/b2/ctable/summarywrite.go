package ctable

import (
	"fmt"
	"math"
	"path"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// summaryBuilder accumulates the SUMMARY index of one column while it is
// written: min, max and flags per block of blockRows rows, over non-NULL
// values (null_aware), NaN excluded from the extrema as python-blosc2 does.
type summaryBuilder struct {
	col       string
	typestr   string // element dtype of min/max: '<i8', 'u1', '?', …
	itemsize  int
	kind      byte // 'i' ints, 'u' uints, 'f' floats, 'b' bool
	blockRows int64

	recs []byte // finished records
	// current block
	rows    int64
	has     bool
	anyNaN  bool
	nonNull int64
	imin    int64
	imax    int64
	umin    uint64
	umax    uint64
	fmin    float64
	fmax    float64
}

// newSummaryBuilder returns a builder for an eligible column (numeric,
// bool, timestamp), or nil.
func newSummaryBuilder(col, dtype string, blockRows int64) *summaryBuilder {
	dt, err := b2.ParseDType(dtype)
	if err != nil {
		return nil
	}
	sb := &summaryBuilder{col: col, itemsize: dt.ItemSize, kind: dt.Kind, blockRows: blockRows}
	switch dt.Kind {
	case 'b':
		sb.typestr = "?"
	case 'i', 'u', 'f':
		if dt.ItemSize == 1 {
			sb.typestr = string(dt.Kind) + "1"
		} else {
			sb.typestr = dtype
		}
	default:
		return nil
	}
	return sb
}

// addInt, addUint, addFloat, addNull add the next row.
func (sb *summaryBuilder) addInt(v int64) {
	if !sb.has || v < sb.imin {
		sb.imin = v
	}
	if !sb.has || v > sb.imax {
		sb.imax = v
	}
	sb.has = true
	sb.next(true)
}

func (sb *summaryBuilder) addUint(v uint64) {
	if !sb.has || v < sb.umin {
		sb.umin = v
	}
	if !sb.has || v > sb.umax {
		sb.umax = v
	}
	sb.has = true
	sb.next(true)
}

func (sb *summaryBuilder) addFloat(v float64) {
	if math.IsNaN(v) {
		sb.anyNaN = true
		sb.next(true)
		return
	}
	if !sb.has || v < sb.fmin {
		sb.fmin = v
	}
	if !sb.has || v > sb.fmax {
		sb.fmax = v
	}
	sb.has = true
	sb.next(true)
}

func (sb *summaryBuilder) addNull() { sb.next(false) }

func (sb *summaryBuilder) next(nonNull bool) {
	sb.rows++
	if nonNull {
		sb.nonNull++
	}
	if sb.rows == sb.blockRows {
		sb.finish()
	}
}

// finish closes the current block's record.
func (sb *summaryBuilder) finish() {
	if sb.rows == 0 {
		return
	}
	rec := make([]byte, 2*sb.itemsize+1)
	var flags byte
	switch {
	case sb.nonNull == 0:
		flags = flagAllNaN | flagAllNull
	case !sb.has:
		flags = flagAllNaN | flagHasNaN
	default:
		if sb.anyNaN {
			flags = flagHasNaN
		}
		sb.put(rec[:sb.itemsize], true)
		sb.put(rec[sb.itemsize:2*sb.itemsize], false)
	}
	rec[2*sb.itemsize] = flags
	sb.recs = append(sb.recs, rec...)
	sb.rows, sb.has, sb.anyNaN, sb.nonNull = 0, false, false, 0
}

func (sb *summaryBuilder) put(b []byte, isMin bool) {
	var u uint64
	switch sb.kind {
	case 'i', 'b':
		u = uint64(sb.imax)
		if isMin {
			u = uint64(sb.imin)
		}
	case 'u':
		u = sb.umax
		if isMin {
			u = sb.umin
		}
	case 'f':
		f := sb.fmax
		if isMin {
			f = sb.fmin
		}
		if sb.itemsize == 4 {
			u = uint64(math.Float32bits(float32(f)))
		} else {
			u = math.Float64bits(f)
		}
	}
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
}

// write writes _indexes/<col>/summary.block.b2nd under root and returns its
// catalog descriptor (spec §7.1), for a column of nrows rows.
func (sb *summaryBuilder) write(root, member string, nrows int64, colDtype string) (mpMap, error) {
	sb.finish()
	n := int64(len(sb.recs) / (2*sb.itemsize + 1))
	dtype := fmt.Sprintf("[('min', '%s'), ('max', '%s'), ('flags', 'u1')]", sb.typestr, sb.typestr)
	if n == 0 {
		return nil, nil
	}
	opts := &b2.ArrayOptions{ChunkShape: []int{int(n)}, BlockShape: []int{int(n)}}
	if err := b2.WriteArray(path.Join(root, member), dtype, []int64{n}, sb.recs, opts); err != nil {
		return nil, err
	}
	tuple := func(v int64) []any { return []any{"__tuple__", v} }
	field := func(name, ts string) []any { return []any{"__tuple__", name, ts} }
	elem := colDtype
	if sb.itemsize == 1 {
		elem = "|" + sb.typestr
		if sb.kind == 'b' {
			elem = "|b1"
		}
	}
	return mpMap{
		{"name", "__self__"}, {"token", sb.col},
		{"target", mpMap{{"source", "field"}, {"field", nil}}}, {"field", nil},
		{"kind", "summary"}, {"version", int64(1)}, {"optlevel", int64(5)},
		{"persistent", true}, {"ooc", false}, {"stale", false}, {"dtype", colDtype},
		{"shape", tuple(nrows)}, {"chunks", tuple(sb.blockRows)}, {"blocks", tuple(sb.blockRows)},
		{"levels", mpMap{{"block", mpMap{
			{"segment_len", sb.blockRows}, {"nsegments", n}, {"path", member},
			{"dtype", []any{field("min", elem), field("max", elem), field("flags", "|u1")}},
		}}}},
		{"bucket", nil}, {"partial", nil}, {"full", nil}, {"opsi", nil}, {"cparams", nil},
		{"null_aware", true}, {"built_value_epoch", int64(1)},
	}, nil
}

// feed adds rows of a vector (live rows sel, or 0..n) to the summary.
func (sb *summaryBuilder) feed(v *columnar.Vector, rows []int) {
	for _, r := range rows {
		if v.IsNull(r) {
			sb.addNull()
			continue
		}
		switch v.Type.Phys() {
		case columnar.PhysBool:
			if v.Bools[r] {
				sb.addInt(1)
			} else {
				sb.addInt(0)
			}
		case columnar.PhysInt:
			if sb.kind == 'u' {
				sb.addUint(uint64(v.Ints[r]))
			} else {
				sb.addInt(v.Ints[r])
			}
		case columnar.PhysUint:
			sb.addUint(v.Uints[r])
		case columnar.PhysFloat:
			sb.addFloat(v.Floats[r])
		}
	}
}
