package executor

import "github.com/b2sql/b2sql/columnar"

// bitsAdd is bitAdd over BITs: each group keeps its own copy of its
// first BIT in s.bytes (in the state's arena) and folds the others into it in place; BITs of
// another length are DuckDB's error ("Cannot AND bit strings of
// different sizes"). The padding bits stay set (AND and OR keep them,
// XOR sets them back).
func (s *aggState) bitsAdd(b *columnar.Batch, arg *columnar.Vector, gids []int32) error {
	s.bytes = growZero(s.bytes, len(s.count))
	name := "XOR"
	switch s.spec.Kind {
	case AggBitAnd:
		name = "AND"
	case AggBitOr:
		name = "OR"
	}
	return forRows(b, func(i int) error {
		if arg.IsNull(i) {
			return nil
		}
		x, g := arg.Bytes[i], gids[i]
		if s.count[g] == 0 {
			s.bytes[g] = s.copyBytes(x) // the state's arena, as min/max's strings
			s.count[g]++
			return nil
		}
		acc := s.bytes[g]
		if len(acc) != len(x) || acc[0] != x[0] {
			return errorf("cannot %s bit strings of different sizes", name)
		}
		for j := 1; j < len(x); j++ {
			switch s.spec.Kind {
			case AggBitAnd:
				acc[j] &= x[j]
			case AggBitOr:
				acc[j] |= x[j]
			default:
				acc[j] ^= x[j]
			}
		}
		acc[1] |= ^byte(0xff >> acc[0])
		s.count[g]++
		return nil
	})
}

// AggBitstringAgg is bitstring_agg (planner/bitstring_agg.go): each group
// a BIT of max-min+1 bits (Param is the LIST [min, max]) with bit x-min
// set for each of its non-NULL integers x, made at the group's first
// value; NULL for a group without values. DISTINCT changes nothing.
const AggBitstringAgg AggKind = 108

// maxBitstringBits is the most bits DuckDB makes a bitstring_agg of.
const maxBitstringBits = 1_000_000_000

// bitstringRange reads Param: min and max as 128-bit integers and the
// number of bits between them, with DuckDB's errors.
func (s *aggState) bitstringRange() (lo, hi columnar.Int128, n int, err error) {
	p := s.spec.Param
	if p.Type.ID != columnar.List || len(p.Elems) != 2 {
		return lo, hi, 0, errorf("could not retrieve required statistics. Alternatively, try by providing the statistics explicitly: BITSTRING_AGG(col, min, max)")
	}
	lo, hi = int128Of(p.Elems[0]), int128Of(p.Elems[1])
	if lo.Cmp(hi) > 0 {
		return lo, hi, 0, errorf("invalid explicit bitstring range: minimum (%s) > maximum (%s)", p.Elems[0], p.Elems[1])
	}
	d, ok := hi.Sub(lo)
	if !ok || d.Hi != 0 || d.Lo >= maxBitstringBits {
		return lo, hi, 0, errorf("the range between min and max value (%s <-> %s) is too large for bitstring aggregation", p.Elems[0], p.Elems[1])
	}
	return lo, hi, int(d.Lo) + 1, nil
}

// int128Of widens an integer value of any width.
func int128Of(v columnar.Value) columnar.Int128 {
	switch {
	case v.Type.ID == columnar.Hugeint || v.Type.ID == columnar.Uhugeint:
		return v.Wide128()
	case v.Type.ID == columnar.Uint64:
		return columnar.Uint128Of(uint64(v.I))
	}
	return columnar.Int128Of(v.I)
}

// bitstringAdd sets the bits of the live non-NULL rows of arg.
func (s *aggState) bitstringAdd(b *columnar.Batch, arg *columnar.Vector, gids []int32) error {
	lo, hi, n, err := s.bitstringRange()
	if err != nil {
		return err
	}
	s.bytes = growZero(s.bytes, len(s.count))
	at := func(i int) columnar.Int128 {
		switch arg.Type.ID {
		case columnar.Hugeint:
			return columnar.Int128FromKey(arg.Bytes[i])
		case columnar.Uhugeint:
			return columnar.Uint128FromKey(arg.Bytes[i])
		case columnar.Uint64:
			return columnar.Uint128Of(arg.Uints[i])
		}
		return columnar.Int128Of(arg.Ints[i])
	}
	return forRows(b, func(i int) error {
		if arg.IsNull(i) {
			return nil
		}
		x, g := at(i), gids[i]
		if x.Cmp(lo) < 0 || x.Cmp(hi) > 0 {
			return errorf("value %s is outside of provided min and max range (%s <-> %s)",
				x.Big(), s.spec.Param.Elems[0], s.spec.Param.Elems[1])
		}
		if s.count[g] == 0 {
			s.bytes[g] = columnar.NewBit(n)
		}
		d, _ := x.Sub(lo)
		columnar.SetBitAt(s.bytes[g], int(d.Lo), 1)
		s.count[g]++
		return nil
	})
}

// bitstringResult writes groups [from, to).
func (s *aggState) bitstringResult(out *columnar.Vector, from, to int) {
	n := to - from
	for k := range n {
		if g := from + k; s.count[g] == 0 {
			out.SetNull(k, n)
		} else {
			out.Bytes[k] = s.bytes[g]
		}
	}
}
