package executor

import (
	"encoding/binary"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// Aggregates after approx_count_distinct, in the planner's order.
const (
	// AggQuantileDisc is quantile_disc(x, Param): the group's value of
	// rank ⌈n·q⌉-1 in ascending order, of x's type (aggstate_values.go).
	AggQuantileDisc = AggApproxCountDistinct + 1 + iota
	// AggMode is mode(x): the group's most frequent non-NULL value, of x's
	// type; among equally frequent values the one seen first wins (DuckDB).
	// It counts distinct values instead of keeping every value.
	AggMode
	// AggList is array_agg(x), list(x): a group's values, NULLs included,
	// in input order (aggstate_list.go).
	AggList
)

// modeKey appends the bytes identifying row i's value: the 8 payload bytes
// of a number (floats as GROUP BY compares them: one NaN, -0 = 0), a
// string's bytes, one byte of a BOOLEAN.
func modeKey(dst []byte, arg *columnar.Vector, i int) []byte {
	switch arg.Type.Phys() {
	case columnar.PhysInt:
		return binary.LittleEndian.AppendUint64(dst, uint64(arg.Ints[i]))
	case columnar.PhysUint:
		return binary.LittleEndian.AppendUint64(dst, arg.Uints[i])
	case columnar.PhysFloat:
		f := arg.Floats[i]
		if f == 0 {
			f = 0
		} else if math.IsNaN(f) {
			f = math.NaN()
		}
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	case columnar.PhysBool:
		if arg.Bools[i] {
			return append(dst, 1)
		}
		return append(dst, 0)
	case columnar.PhysNested:
		// A list, struct or map by its JSON text, as windows key them
		// (keyOf); entropy counts these (mode's result needs the value).
		return arg.Value(i).AppendJSON(dst)
	}
	return append(dst, arg.Bytes[i]...)
}

// modeAdd counts the live non-NULL values of arg in their groups; with
// DISTINCT a value counts once.
func (s *aggState) modeAdd(b *columnar.Batch, arg *columnar.Vector, gids []int32) {
	v := &s.vals
	b.ForEach(func(i int) {
		if arg.IsNull(i) {
			return
		}
		g := gids[i]
		if v.modes[g] == nil {
			v.modes[g] = modeCounts{}
		}
		s.keyBuf = modeKey(s.keyBuf[:0], arg, i)
		c, ok := v.modes[g][string(s.keyBuf)]
		switch {
		case !ok:
			c = modeCount{n: 1, first: v.seq}
			if v.modeStore != nil {

				c.row = v.modeLen
				v.modeLen++
				v.modeStore.Grow(v.modeLen)
				v.modeStore.CopyRowOwned(c.row, arg, i, v.modeLen)
			}
		case s.distinct != nil:
			return
		default:
			c.n++
		}
		c.last = v.seq
		v.seq++
		v.modes[g][string(s.keyBuf)] = c
	})

}

// modeResult writes the modes of groups [from, to): NULL for a group
// without values.
func (s *aggState) modeResult(out *columnar.Vector, from, to int) {
	n := to - from
	for k := range n {
		var best string
		var top modeCount
		for key, c := range s.vals.modes[from+k] {
			if top.n == 0 || c.n > top.n || c.n == top.n && c.first < top.first {
				best, top = key, c
			}
		}
		if top.n == 0 {
			out.SetNull(k, n)
			continue
		}
		switch out.Type.Phys() {
		case columnar.PhysInt:
			out.Ints[k] = int64(binary.LittleEndian.Uint64([]byte(best)))
		case columnar.PhysUint:
			out.Uints[k] = binary.LittleEndian.Uint64([]byte(best))
		case columnar.PhysFloat:
			out.Floats[k] = math.Float64frombits(binary.LittleEndian.Uint64([]byte(best)))
		case columnar.PhysBool:
			out.Bools[k] = best[0] == 1
		case columnar.PhysBytes:
			out.Bytes[k] = []byte(best)
		case columnar.PhysNested:
			out.CopyRow(k, s.vals.modeStore, top.row, n)
		}
	}
}
