package index

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// RangeShare estimates the share of rows that the range predicates in
// preds keep: comparisons (<, <=, >, >=, BETWEEN) of numeric, date or
// timestamp columns with constants, each column's bounds intersected
// first, values taken as uniform over the column's [Min, Max] in stats —
// a date range of one quarter in seven years keeps 1/28. A range outside
// [Min, Max] keeps one row's worth, never 0. bounded is false when no
// predicate bounds a column with usable statistics; others reports the
// predicates the share leaves out (other shapes, columns without usable
// statistics), for the caller to guess at.
func RangeShare(preds []Pred, stats func(col int) (Stats, bool)) (share float64, bounded, others bool) {
	type bounds struct{ lo, hi float64 }
	cols := map[int]*bounds{}
	for _, p := range preds {
		lo, hi, isRange := predBounds(p)
		if !isRange {
			others = true
			continue
		}
		b := cols[p.Col]
		if b == nil {
			b = &bounds{math.Inf(-1), math.Inf(1)}
			cols[p.Col] = b
		}
		b.lo, b.hi = max(b.lo, lo), min(b.hi, hi)
	}
	share = 1
	for col, b := range cols {
		mn, mx, rows, ok := spread(stats, col)
		if !ok {
			others = true
			continue
		}
		lo, hi := max(b.lo, mn), min(b.hi, mx)
		f := max((hi-lo)/(mx-mn), 1/max(float64(rows), 1))
		share *= min(f, 1)
		bounded = true
	}
	return share, bounded, others
}

// EqShare estimates the share of rows equal to one of p's values when p is
// an equality or IN on an integer, date or timestamp column: each value
// one of the max-min+1 values the column's statistics allow (region = 3
// over regions 0..19 keeps 1/20, id = 7 over a million ids one row). ok
// is false for other predicates and columns.
func EqShare(p Pred, stats func(col int) (Stats, bool)) (share float64, ok bool) {
	if (p.Op != Eq && p.Op != In) || len(p.Vals) == 0 || !countable(p.Vals[0].Type) {
		return 0, false
	}
	st, has := stats(p.Col)
	if !has || !st.HasMinMax || st.Min.Null || st.Max.Null || !countable(st.Min.Type) {
		return 0, false
	}
	mn, mx := st.Min.AsFloat(), st.Max.AsFloat()
	if mx < mn {
		return 0, false
	}
	return min(float64(len(p.Vals))/(mx-mn+1), 1), true
}

// spread returns a column's statistics as numbers when they bound it:
// min/max known, no NaN, max above min.
func spread(stats func(col int) (Stats, bool), col int) (mn, mx float64, rows int64, ok bool) {
	st, has := stats(col)
	if !has || !st.HasMinMax || st.HasNaN || st.Min.Null || st.Max.Null {
		return 0, 0, 0, false
	}
	mn, mx = st.Min.AsFloat(), st.Max.AsFloat()
	if !(mx > mn) {
		return 0, 0, 0, false
	}
	return mn, mx, st.Rows, true
}

// predBounds returns the interval a comparison of a numeric-like column
// with constants allows; false for other shapes.
func predBounds(p Pred) (lo, hi float64, ok bool) {
	if len(p.Vals) == 0 || p.Vals[0].Null || !rangeType(p.Vals[0].Type) {
		return 0, 0, false
	}
	v := p.Vals[0].AsFloat()
	switch p.Op {
	case Lt, Le:
		return math.Inf(-1), v, true
	case Gt, Ge:
		return v, math.Inf(1), true
	case Between:
		if len(p.Vals) < 2 || p.Vals[1].Null {
			return 0, 0, false
		}
		return v, p.Vals[1].AsFloat(), true
	}
	return 0, 0, false
}

func rangeType(t columnar.Type) bool {
	switch t.Phys() {
	case columnar.PhysInt, columnar.PhysUint, columnar.PhysFloat:
		return t.ID != columnar.Bool
	}
	return false
}

// countable reports whether a type's values are whole steps apart
// (integers, dates, timestamps: physically integers), so that max-min+1
// counts the values between two bounds.
func countable(t columnar.Type) bool {
	switch t.Phys() {
	case columnar.PhysInt, columnar.PhysUint:
		return t.ID != columnar.Bool && t.ID != columnar.Decimal
	}
	return false
}
