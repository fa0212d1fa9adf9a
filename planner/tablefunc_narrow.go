package planner

import (
	"fmt"
	"math/big"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// A series table narrows its bounds to the values the pushed comparisons
// allow, so that range(1000000000) WHERE i < 10 generates 10 rows, not a
// billion. The comparisons stay Inexact: the Filter above the scan still
// checks every row, so the result cannot depend on the narrowing, which
// is the block_pruning rule's (SET block_pruning = off, or pruning = off,
// generates the whole series). A calendar-month series is not narrowed
// (its values are not an arithmetic progression).

// SupportsFilter accepts comparisons of the series' column with constants
// of its type: =, <, <=, >, >=, BETWEEN and IN (by its smallest and
// largest value).
func (t *SeriesTable) SupportsFilter(p index.Pred) index.Support {
	if t.Series.Months != 0 || t.Series.Step == 0 || p.Col != 0 || len(p.Vals) == 0 {
		return index.Unsupported
	}
	switch p.Op {
	case index.Eq, index.Lt, index.Le, index.Gt, index.Ge, index.Between, index.In:
	default:
		return index.Unsupported
	}
	for _, v := range p.Vals {
		if v.Null || v.Type.ID != t.Series.Type.ID {
			return index.Unsupported
		}
	}
	return index.Inexact
}

// narrowed returns the series as spec's scan generates it: restricted to
// the values between the bounds of spec.Filter when the block_pruning
// rule is on, else the whole series; skipped is the number of rows the
// bounds removed (0 when nothing was narrowed).
func (t *SeriesTable) narrowed(spec index.ScanSpec) (s Series, skipped *big.Int) {
	s, skipped = t.Series, new(big.Int)
	if !spec.On(index.BlockPruning) || len(spec.Filter) == 0 || t.SupportsFilter(index.Pred{Col: 0, Op: index.Eq, Vals: []columnar.Value{columnar.IntValue(s.Type, 0)}}) != index.Inexact {
		return s, skipped
	}
	// [lo, hi]: the values every pushed comparison allows.
	lo, hi := big.NewInt(-1<<63), big.NewInt(1<<63-1)
	one := big.NewInt(1)
	atLeast := func(v *big.Int) {
		if v.Cmp(lo) > 0 {
			lo = v
		}
	}
	atMost := func(v *big.Int) {
		if v.Cmp(hi) < 0 {
			hi = v
		}
	}
	for _, p := range spec.Filter {
		if p.Col != 0 || t.SupportsFilter(p) != index.Inexact {
			continue
		}
		first, last := big.NewInt(p.Vals[0].I), big.NewInt(p.Vals[len(p.Vals)-1].I)
		switch p.Op {
		case index.Eq:
			atLeast(first)
			atMost(first)
		case index.Lt:
			atMost(first.Sub(first, one))
		case index.Le:
			atMost(first)
		case index.Gt:
			atLeast(first.Add(first, one))
		case index.Ge:
			atLeast(first)
		case index.Between:
			atLeast(first)
			atMost(last)
		case index.In:
			min, max := first, new(big.Int).Set(first)
			for _, v := range p.Vals[1:] {
				x := big.NewInt(v.I)
				if x.Cmp(min) < 0 {
					min = x
				}
				if x.Cmp(max) > 0 {
					max = x
				}
			}
			atLeast(min)
			atMost(max)
		}
	}
	// The series is Start + k·Step for k in [0, n); keep the k whose value
	// lies in [lo, hi].
	start, step := big.NewInt(s.Start), big.NewInt(s.Step)
	n := seriesCount(s)
	kLo, kHi := new(big.Int), new(big.Int).Sub(n, one)
	if s.Step > 0 {
		// lo <= Start + k·Step  ⇔  k >= ⌈(lo - Start) / Step⌉
		if k := ceilDiv(new(big.Int).Sub(lo, start), step); k.Cmp(kLo) > 0 {
			kLo = k
		}
		// Start + k·Step <= hi  ⇔  k <= ⌊(hi - Start) / Step⌋
		if k := floorDiv(new(big.Int).Sub(hi, start), step); k.Cmp(kHi) < 0 {
			kHi = k
		}
	} else {
		neg := new(big.Int).Neg(step)
		// Start - k·|Step| <= hi  ⇔  k >= ⌈(Start - hi) / |Step|⌉
		if k := ceilDiv(new(big.Int).Sub(start, hi), neg); k.Cmp(kLo) > 0 {
			kLo = k
		}
		// lo <= Start - k·|Step|  ⇔  k <= ⌊(Start - lo) / |Step|⌋
		if k := floorDiv(new(big.Int).Sub(start, lo), neg); k.Cmp(kHi) < 0 {
			kHi = k
		}
	}
	kept := new(big.Int).Sub(kHi, kLo)
	kept.Add(kept, one)
	if kept.Sign() <= 0 {
		kept.SetInt64(0)
		s.Start, s.Stop, s.Inclusive = 0, 0, false // no rows: Start has reached Stop
	} else {
		// Both ends are values of the series, so they fit in int64.
		first := new(big.Int).Mul(kLo, step)
		first.Add(first, start)
		last := new(big.Int).Mul(kHi, step)
		last.Add(last, start)
		s.Start, s.Stop, s.Inclusive = first.Int64(), last.Int64(), true
	}
	return s, skipped.Sub(n, kept)
}

// seriesCount is the number of rows of a series without calendar months.
func seriesCount(s Series) *big.Int {
	start, stop, step := big.NewInt(s.Start), big.NewInt(s.Stop), big.NewInt(s.Step)
	// Rows are Start + k·Step while inside: k <= ⌊(Stop - Start) / Step⌋
	// (inclusive), k < ⌈(Stop - Start) / Step⌉ (exclusive); the division by
	// a negative step turns the comparison the right way for descending
	// series, since both numerator and denominator change sign.
	diff := new(big.Int).Sub(stop, start)
	var n *big.Int
	if s.Inclusive {
		n = floorDiv(diff, step)
		n.Add(n, big.NewInt(1))
	} else {
		n = ceilDiv(diff, step)
	}
	if n.Sign() < 0 {
		n.SetInt64(0)
	}
	return n
}

// floorDiv and ceilDiv round a / b (b != 0) down and up.
func floorDiv(a, b *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int)) // q rounds toward zero
	if r.Sign() != 0 && (r.Sign() < 0) != (b.Sign() < 0) {
		q.Sub(q, big.NewInt(1))
	}
	return q
}

func ceilDiv(a, b *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	if r.Sign() != 0 && (r.Sign() < 0) == (b.Sign() < 0) {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// describeNarrowed is the EXPLAIN text of a narrowing (DescribeScan shows
// the narrowed bounds before it): the rows it spared, "" for none.
func describeNarrowed(skipped *big.Int) string {
	if skipped.Sign() == 0 {
		return ""
	}
	return fmt.Sprintf("skipped %s rows (%s)", skipped, index.BlockPruning)
}
