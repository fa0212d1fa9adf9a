package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

var strictComparisons = map[string]bool{"=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true}

// decorrelateAggGeneral handles a correlated aggregate whose correlation
// is not only equalities, e.g. (SELECT count(*) FROM t x WHERE x.b < t.b):
//
//	D = DISTINCT outer columns the correlation reads (from the outer input)
//	G = Aggregate of (D LEFT JOIN inner ON correlation) grouped by D
//	outer LEFT JOIN G ON outer columns = D columns
//
// The last join matches NULLs as values (nullSafeKeys), so an outer NULL
// gets its own group, also when the correlation can hold for it (x.b < t.b
// OR x.b IS NULL); for a type without such keys every correlated conjunct
// must be a comparison, NULL for an outer NULL, as missing G is then. Aggregates see inner values only through
// a marker (count(*) counts matched rows; arguments are NULL on
// NULL-extended rows).
func (b *binder) decorrelateAggGeneral(a *planner.Aggregate, valueExpr planner.Expr, corr []planner.Expr, child *binder, unsupported func(string) error) (*boundSub, error) {
	outerCols := map[planner.ColID]planner.Column{}
	var order []planner.ColID
	strict := true
	for _, e := range corr {
		call, ok := e.(*planner.Call)
		strict = strict && ok && strictComparisons[call.Fn]
		planner.WalkExpr(e, func(x planner.Expr) {
			if r, ok := x.(*planner.ColRef); ok && child.outerRefs[r.Col.ID] {
				if _, seen := outerCols[r.Col.ID]; !seen {
					outerCols[r.Col.ID] = r.Col
					order = append(order, r.Col.ID)
				}
			}
		})
	}
	// D: the distinct outer values.
	dp := &planner.Project{Input: b.input}
	dcol := map[planner.ColID]planner.Column{}
	for _, id := range order {
		c := outerCols[id]
		d := b.newCol(c.Name, "", c.Type)
		dp.Exprs = append(dp.Exprs, &planner.ColRef{Col: c})
		dp.Out = append(dp.Out, d)
		dcol[id] = d
	}
	var dnode planner.Node = &planner.Distinct{Input: dp}
	// The inner side with a marker column.
	mark := b.newCol("matched", "", columnar.TBool)
	ip := &planner.Project{Input: a.Input}
	for _, c := range a.Input.Schema() {
		ip.Exprs = append(ip.Exprs, &planner.ColRef{Col: c})
		ip.Out = append(ip.Out, c)
	}
	ip.Exprs = append(ip.Exprs, &planner.Const{Val: columnar.BoolValue(true)})
	ip.Out = append(ip.Out, mark)
	toD := func(e planner.Expr) planner.Expr {
		return mapColRefs(e, func(r *planner.ColRef) planner.Expr {
			if d, ok := dcol[r.Col.ID]; ok {
				return &planner.ColRef{Col: d}
			}
			return r
		})
	}
	var conds []planner.Expr
	for _, e := range corr {
		conds = append(conds, toD(e))
	}
	j := &planner.Join{Left: dnode, Right: ip, Kind: planner.JoinLeft}
	j.EquiKeys, j.Cond = planner.SplitJoinCond(planner.JoinAnd(conds), dnode.Schema(), ip.Schema())
	g := &planner.Aggregate{Input: j}
	var keys []planner.EquiKey
	for _, id := range order {
		d := dcol[id]
		gc := b.newCol(d.Name, "", d.Type)
		g.Groups = append(g.Groups, &planner.ColRef{Col: d})
		g.Out = append(g.Out, gc)
		k, ok := nullSafeKeys(&planner.ColRef{Col: outerCols[id]}, &planner.ColRef{Col: gc})
		if !ok && !strict {
			return nil, unsupported("aggregate with this correlation")
		}
		keys = append(keys, k...)
	}
	markRef := &planner.ColRef{Col: mark}
	for _, ag := range a.Aggs {
		switch {
		case ag.Func == planner.AggCountStar:
			ag = planner.AggCall{Func: planner.AggCount, Arg: markRef, Type: ag.Type}
		case ag.Arg != nil:
			ag.Arg = &planner.Case{Whens: []planner.When{{Cond: markRef, Then: ag.Arg}}, T: ag.Arg.Type()}
		}
		g.Aggs = append(g.Aggs, ag)
	}
	g.Out = append(g.Out, a.Out[len(a.Groups):]...)
	return &boundSub{right: g, agg: &aggSub{value: countsCoalesced(a, valueExpr), keys: keys}}, nil
}
