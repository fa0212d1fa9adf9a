package executor

import (
	"bytes"

	"github.com/b2sql/b2sql/columnar"
)

// The states of aggregates over 128-bit values: SUM (here first) and MIN
// and MAX (below).
//
// A SUM typed HUGEINT or DECIMAL(38,s), as DuckDB types the SUM of an
// integer or DECIMAL, never overflows below 128 bits. Over 64-bit
// arguments (BIGINT, DECIMAL(≤18,s)) it adds into int64s, the fast path
// (sumInts, updateFlat), while no group overflows; when a batch does, the
// batch is taken back out (int64 addition wraps, so subtracting it again
// restores every group exactly) and the state moves to one 128-bit
// integer per group (wsum) for good. Over UBIGINT and 128-bit arguments it
// starts there. An overflow of 128 bits is an error, as in DuckDB.
//
// The binder sends SUM and AVG of non-DISTINCT 128-bit arguments through
// 64-bit sums of their 32-bit limbs instead (sql wideSum), which the
// parallel partial aggregates combine; this state takes sum(DISTINCT x),
// whose limbs would not be distinct, and the final phase that adds the
// partial sums.

// wideSum reports whether s is such a SUM.
func (s *aggState) wideSum() bool { return s.spec.Kind == AggSum && s.spec.Type.Wide() }

// wideLane reports whether the SUM adds into wsum (not, or no longer, into
// int64s).
func (s *aggState) wideLane() bool {
	return s.wideSum() && (s.wsum != nil || s.in.Phys() != columnar.PhysInt)
}

// int128At reads row i of an integer or DECIMAL vector as an unscaled
// 128-bit integer.
func int128At(v *columnar.Vector, i int) columnar.Int128 {
	switch v.Type.Phys() {
	case columnar.PhysUint:
		return columnar.Uint128Of(v.Uints[i])
	case columnar.PhysBytes:
		if v.Type.ID == columnar.Uhugeint {
			return columnar.Uint128FromKey(v.Bytes[i])
		}
		return columnar.Int128FromKey(v.Bytes[i])
	}
	return columnar.Int128Of(v.Ints[i])
}

// updateWideSum adds the rows sel (every row of n when nil) of arg.
func (s *aggState) updateWideSum(arg *columnar.Vector, gids []int32, sel []int, n int) error {
	if !s.wideLane() {
		sum := sumInts
		if len(s.ints) <= fewGroups {
			sum = sumIntsLanes // an overflow only moves to wsum
		}
		if sum(s.ints, s.count, arg.Ints, gids, sel, n) {
			return nil
		}
		unsumInts(s.ints, s.count, arg.Ints, gids, sel, n)
		s.wsum = growZero(s.wsum, len(s.ints))
		for g, x := range s.ints {
			s.wsum[g] = columnar.Int128Of(x)
		}
		s.ints = nil
	}
	add := func(i int) bool {
		g := gids[i]
		r, ok := s.wsum[g].Add(int128At(arg, i))
		s.wsum[g] = r
		s.count[g]++
		return ok
	}
	if sel == nil {
		for i := range n {
			if !add(i) {
				return errorf("overflow in SUM of %s", arg.Type)
			}
		}
		return nil
	}
	for _, i := range sel {
		if !add(i) {
			return errorf("overflow in SUM of %s", arg.Type)
		}
	}
	return nil
}

// unsumInts takes back what sumInts added (the same rows, wrapping).
func unsumInts(vals, counts []int64, in []int64, gids []int32, sel []int, n int) {
	if sel == nil {
		for i, x := range in[:n] {
			vals[gids[i]] -= x
			counts[gids[i]]--
		}
		return
	}
	for _, i := range sel {
		vals[gids[i]] -= in[i]
		counts[gids[i]]--
	}
}

// wideSumResult writes group g's sum to row k of out, as the 16 bytes of a
// wide value appended to slab (one allocation per output batch).
func (s *aggState) wideSumResult(out *columnar.Vector, g, k int, slab *[]byte) {
	var x columnar.Int128
	if s.wsum != nil {
		x = s.wsum[g]
	} else {
		x = columnar.Int128Of(s.ints[g])
	}
	start := len(*slab)
	*slab = columnar.AppendInt128Key(*slab, x)
	out.Bytes[k] = (*slab)[start:len(*slab):len(*slab)]
}

// MIN and MAX of a 128-bit type (HUGEINT, UHUGEINT, DECIMAL(19..38)) keep
// each group's extreme as its 16-byte key in a fixed slot (keys16),
// overwritten in place: as strings, every new extreme was copied into the
// state's arena, which only grows, so that max(d38 - 1) over 10M rising
// values held 200 MB. The keys order as the numbers do (columnar/int128.go).

// minMaxWide reports whether s is such a MIN or MAX.
func (s *aggState) minMaxWide() bool {
	return (s.spec.Kind == AggMin || s.spec.Kind == AggMax) && s.in.Wide()
}

// updateMinMaxWide folds the rows sel (every row of n when nil) of arg.
func (s *aggState) updateMinMaxWide(arg *columnar.Vector, gids []int32, sel []int, n int) {
	isMin := s.spec.Kind == AggMin
	keys, counts := s.keys16, s.count
	row := func(i int) {
		g, x := gids[i], arg.Bytes[i]
		if counts[g] == 0 {
			copy(keys[g][:], x)
		} else if c := bytes.Compare(x, keys[g][:]); c != 0 && (c < 0) == isMin {
			copy(keys[g][:], x)
		}
		counts[g]++
	}
	if sel == nil {
		for i := range n {
			row(i)
		}
		return
	}
	for _, i := range sel {
		row(i)
	}
}

// minMaxWideResult writes group g's extreme to row k of out, its 16 bytes
// appended to slab (one allocation per output batch).
func (s *aggState) minMaxWideResult(out *columnar.Vector, g, k int, slab *[]byte) {
	start := len(*slab)
	*slab = append(*slab, s.keys16[g][:]...)
	out.Bytes[k] = (*slab)[start:len(*slab):len(*slab)]
}
