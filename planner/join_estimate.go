package planner

import "github.com/b2sql/b2sql/index"

// Join cardinality estimates, for ordering joins and choosing build sides.
// The model is the one of foreign-key joins in a snowflake schema: joining
// a stream to a table on the table's key keeps the stream's rows in the
// proportion of the table's rows its own filters keep. So every estimate
// carries, besides rows, the selectivity applied so far (sel). A scan's
// range predicates on columns with whole-table min/max keep their share of
// [min, max] (join_estimate_range.go); any other filtered input keeps
// filterSel of its rows, DuckDB's default guess for one filter.
//
// The estimates order work; they never change a result.

const filterSel = 0.2

// est is an estimate: rows out, and the fraction of its base rows the
// filters below it keep.
type est struct {
	rows, sel float64
}

// estimate returns n's estimate, and false when some input has no known
// row count.
func estimate(n Node) (est, bool) {
	switch x := n.(type) {
	case *Scan, *Filter, *Project:
		return chainEstimate(n)
	case *Join:
		l, okl := estimate(x.Left)
		r, okr := estimate(x.Right)
		if !okl || !okr {
			return est{}, false
		}
		switch x.Kind {
		case JoinInner:
			if len(x.EquiKeys) == 0 {
				return est{rows: l.rows * r.rows * filterSel, sel: l.sel * r.sel * filterSel}, true
			}
			return joinEstimate(l, r), true
		case JoinCross:
			return est{rows: l.rows * r.rows, sel: l.sel * r.sel}, true
		case JoinSemi, JoinAnti:
			return est{rows: l.rows * 0.5, sel: l.sel * 0.5}, true
		case JoinRight: // at least the preserved side
			return r, true
		case JoinFull:
			if r.rows > l.rows {
				return r, true
			}
			return l, true
		default: // left, mark, single: at least the preserved side
			return l, true
		}
	case *Aggregate:
		in, ok := estimate(x.Input)
		if !ok {
			return est{}, false
		}
		if len(x.Groups) == 0 {
			return est{rows: 1, sel: 1}, true
		}
		return est{rows: max(1, in.rows*filterSel), sel: 1}, true
	}
	return est{}, false
}

// joinEstimate is the equi-join of l and r: whichever side is the key side,
// the other keeps the key side's selectivity.
func joinEstimate(l, r est) est {
	return est{rows: max(l.rows*r.sel, r.rows*l.sel), sel: l.sel * r.sel}
}

// chainEstimate estimates a scan under filters and projections.
func chainEstimate(n Node) (est, bool) {
	filtered := false
	for {
		switch x := n.(type) {
		case *Scan:
			rc, ok := x.Table.(RowCounter)
			if !ok {
				return est{}, false
			}
			rows := float64(rc.RowCount())
			if x.Limit >= 0 && float64(x.Limit) < rows {
				rows = float64(x.Limit)
			}
			if filtered || len(x.Filter) > 0 {
				sel := filterSel
				if r, ok := rangeSel(x); ok && !filtered {
					sel = r // join_estimate_range.go
				}
				return est{rows: rows * sel, sel: sel}, true
			}
			return est{rows: rows, sel: 1}, true
		case *Filter:
			filtered = true
			n = x.Input
		case *Project:
			n = x.Input
		default:
			e, ok := estimate(n)
			if ok && filtered {
				e.rows *= filterSel
				e.sel *= filterSel
			}
			return e, ok
		}
	}
}

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
