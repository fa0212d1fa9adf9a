package planner

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// rangeSel estimates the fraction of s's rows its pushed predicates keep
// when they bound a numeric, date or timestamp column whose whole-table
// min/max the table knows (Parquet footers, SUMMARY indexes): the share of
// [min, max] the bounds leave, values taken as uniform — a date range of
// one quarter in seven years keeps 1/28, not filterSel's 1/5. Bounds on
// one column are intersected first. Predicates of other shapes count as
// filterSel once more. ok is false when no predicate bounds such a column,
// so the caller keeps filterSel.
func rangeSel(s *Scan) (sel float64, ok bool) {
	sp, isStats := s.Table.(StatsProvider)
	if !isStats || len(s.Filter) == 0 {
		return 0, false
	}
	type bounds struct{ lo, hi float64 }
	cols := map[int]*bounds{}
	others := false
	for _, p := range s.Filter {
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
	sel, ok = 1, false
	for col, b := range cols {
		st, has := sp.ColumnStats(col)
		if !has || !st.HasMinMax || st.HasNaN || st.Min.Null || st.Max.Null {
			others = true
			continue
		}
		mn, mx := st.Min.AsFloat(), st.Max.AsFloat()
		if !(mx > mn) {
			others = true
			continue
		}
		lo, hi := max(b.lo, mn), min(b.hi, mx)
		// At least one row's worth: a range between two values may still
		// hold some, and 0 would make every join above it free.
		f := max((hi-lo)/(mx-mn), 1/max(float64(st.Rows), 1))
		sel *= min(f, 1)
		ok = true
	}
	if others {
		sel *= filterSel
	}
	return sel, ok
}

// predBounds returns the interval a comparison of a numeric-like column
// with constants allows; false for other shapes.
func predBounds(p index.Pred) (lo, hi float64, ok bool) {
	if len(p.Vals) == 0 || p.Vals[0].Null || !rangeType(p.Vals[0].Type) {
		return 0, 0, false
	}
	v := p.Vals[0].AsFloat()
	switch p.Op {
	case index.Lt, index.Le:
		return math.Inf(-1), v, true
	case index.Gt, index.Ge:
		return v, math.Inf(1), true
	case index.Between:
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
