package planner

import (
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
	sel, ok, others := index.RangeShare(s.Filter, sp.ColumnStats)
	if !ok {
		return 0, false
	}
	if others {
		sel *= filterSel
	}
	return sel, true
}
