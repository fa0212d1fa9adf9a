package planner

import (
	"github.com/b2sql/b2sql/columnar"
)

// answerFromMetadata replaces an ungrouped aggregate of COUNT(*), COUNT(col),
// MIN(col) and MAX(col) over an unfiltered scan with the constants the
// table's statistics give, when they give all of them exactly.
func answerFromMetadata(n Node) Node {
	n = mapChildren(n, answerFromMetadata)
	a, ok := n.(*Aggregate)
	if !ok || len(a.Groups) > 0 {
		return n
	}
	s, ok := a.Input.(*Scan)
	if !ok || len(s.Filter) > 0 {
		return n
	}
	sp, _ := s.Table.(StatsProvider) // nil: COUNT(*) alone may still come from a RowCounter
	// Statistics answer only these; asking a table for them otherwise costs
	// I/O for nothing (a remote CTable opens the column's members: a round
	// trip before the scan, which opens its columns all at once).
	for _, agg := range a.Aggs {
		switch agg.Func {
		case AggCountStar, AggCount, AggMin, AggMax:
		default:
			return n
		}
	}
	row := make([]Expr, len(a.Aggs))
	for i, agg := range a.Aggs {
		v, ok := aggFromStats(agg, s, sp)
		if !ok {
			return n
		}
		row[i] = &Const{Val: v}
	}
	return &Values{Rows: [][]Expr{row}, Out: a.Out, Note: "answered from metadata (" + s.Name + ")"}
}

func aggFromStats(agg AggCall, s *Scan, sp StatsProvider) (columnar.Value, bool) {
	if agg.Distinct && agg.Func != AggMin && agg.Func != AggMax || agg.Filter != nil {
		return columnar.Value{}, false
	}
	if agg.Func == AggCountStar {
		rc, ok := s.Table.(RowCounter)
		if !ok {
			return columnar.Value{}, false
		}
		return columnar.IntValue(agg.Type, rc.RowCount()), true
	}
	ref, ok := agg.Arg.(*ColRef)
	if !ok || sp == nil {
		return columnar.Value{}, false
	}
	col := -1
	for i, c := range s.Cols {
		if c.ID == ref.Col.ID {
			col = s.TableCols[i]
		}
	}
	if col < 0 {
		return columnar.Value{}, false
	}
	st, ok := sp.ColumnStats(col)
	if !ok {
		return columnar.Value{}, false
	}
	switch agg.Func {
	case AggCount:
		if st.NullCount < 0 {
			return columnar.Value{}, false
		}
		return columnar.IntValue(agg.Type, st.Rows-st.NullCount), true
	case AggMin, AggMax:
		if st.NullCount >= 0 && st.NullCount == st.Rows {
			return columnar.NullValue(agg.Type), true // no non-NULL value
		}
		// NaN sorts above every number: a possible NaN spoils MAX (not MIN,
		// unless the column could be all NaN, which leaves no min/max).
		if !st.HasMinMax || (agg.Func == AggMax && st.HasNaN) {
			return columnar.Value{}, false
		}
		v := st.Min
		if agg.Func == AggMax {
			v = st.Max
		}
		if v.Type.Phys() != agg.Type.Phys() {
			return columnar.Value{}, false
		}
		// Parquet writers store a zero min as -0.0 and a zero max as +0.0
		// whatever the data holds, so a zero bound does not say which zero.
		if v.Type.Phys() == columnar.PhysFloat && v.F == 0 {
			return columnar.Value{}, false
		}
		v.Type = agg.Type
		return v, true
	}
	return columnar.Value{}, false
}
