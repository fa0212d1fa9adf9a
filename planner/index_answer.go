package planner

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// IndexAnswerer is a Table that can compute ungrouped aggregates over the
// rows matching a conjunction of scan predicates from an index alone (a
// CTable's FULL index: positions, sorted values and the deleted-rows
// mask), without reading column blocks. It answers all of aggs or none
// (false): then the query runs as a scan, which reports any error.
type IndexAnswerer interface {
	Table
	AnswerFromIndex(filter []index.Pred, aggs []index.AggRequest) ([]columnar.Value, bool)
}

// answerFromIndex replaces an ungrouped aggregate of COUNT(*), COUNT(col),
// MIN, MAX, SUM and AVG over a filtered scan by the constants the table's
// index gives, when every conjunct of the filter was offered to the scan
// and the table answers them all exactly.
func answerFromIndex(n Node) Node {
	n = mapChildren(n, answerFromIndex)
	a, ok := n.(*Aggregate)
	if !ok || len(a.Groups) > 0 {
		return n
	}
	s, rest := scanUnder(a.Input)
	if s == nil || len(s.Filter) == 0 || s.Limit >= 0 {
		return n
	}
	ia, ok := s.Table.(IndexAnswerer)
	if !ok {
		return n
	}
	// What stays in the Filter above the scan must be exactly what the
	// scan was offered: the table then decides the whole condition.
	for _, c := range rest {
		p, ok := toPred(c, s)
		if !ok || !hasPred(s.Filter, p) {
			return n
		}
	}
	reqs := make([]index.AggRequest, len(a.Aggs))
	for i, agg := range a.Aggs {
		r, ok := indexAggRequest(agg, s)
		if !ok {
			return n
		}
		reqs[i] = r
	}
	vals, ok := ia.AnswerFromIndex(s.Filter, reqs)
	if !ok || len(vals) != len(a.Aggs) {
		return n
	}
	row := make([]Expr, len(vals))
	for i, v := range vals {
		row[i] = &Const{Val: v}
	}
	return &Values{Rows: [][]Expr{row}, Out: a.Out, Note: "answered from index (" + s.Name + ")"}
}

// scanUnder returns the scan below an optional Filter and the Filter's
// conjuncts.
func scanUnder(n Node) (*Scan, []Expr) {
	switch n := n.(type) {
	case *Scan:
		return n, nil
	case *Filter:
		if s, ok := n.Input.(*Scan); ok {
			return s, SplitAnd(n.Cond)
		}
	}
	return nil, nil
}

func hasPred(ps []index.Pred, p index.Pred) bool {
	for _, q := range ps {
		if q.Col != p.Col || q.Op != p.Op || len(q.Vals) != len(p.Vals) {
			continue
		}
		same := true
		for i := range q.Vals {
			if q.Vals[i].Type != p.Vals[i].Type || columnar.Compare(q.Vals[i], p.Vals[i]) != 0 {
				same = false
			}
		}
		if same {
			return true
		}
	}
	return false
}

func indexAggRequest(agg AggCall, s *Scan) (index.AggRequest, bool) {
	kinds := map[AggFunc]index.AggKind{AggCount: index.AggCountCol, AggMin: index.AggMinCol,
		AggMax: index.AggMaxCol, AggSum: index.AggSumCol, AggAvg: index.AggAvgCol}
	if agg.Filter != nil {
		return index.AggRequest{}, false // the index answers for every row
	}
	if agg.Func == AggCountStar {
		return index.AggRequest{Kind: index.AggCountRows, Col: -1, Type: agg.Type}, true
	}
	k, ok := kinds[agg.Func]
	if !ok || (agg.Distinct && agg.Func != AggMin && agg.Func != AggMax) {
		return index.AggRequest{}, false
	}
	ref, ok := agg.Arg.(*ColRef)
	if !ok {
		return index.AggRequest{}, false
	}
	for i, c := range s.Cols {
		if c.ID == ref.Col.ID {
			return index.AggRequest{Kind: k, Col: s.TableCols[i], Type: agg.Type}, true
		}
	}
	return index.AggRequest{}, false
}
