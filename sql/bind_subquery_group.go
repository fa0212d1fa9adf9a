package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// decorrelateGrouped decorrelates a correlated subquery with GROUP BY
// (and HAVING) whose correlation is equalities outer = inner:
//
//	(SELECT count(*) FROM t2 WHERE t2.k = t1.a GROUP BY t2.name HAVING …)
//
// The inner rows of one outer row are those with the inner keys equal to
// its values, so grouping by (inner keys, GROUP BY) computes every outer
// row's groups at once; HAVING filters them, and the join on the keys
// brings them back. An outer row without rows has no group: NULL as a
// value, no match for EXISTS and IN, as the subquery itself gives.
// havings are the HAVING filters above the Aggregate, outermost first.
func (b *binder) decorrelateGrouped(a *planner.Aggregate, havings []*planner.Filter, valueExpr planner.Expr, corr []planner.Expr, outerRefs map[planner.ColID]bool, unsupported func(string) error) (*boundSub, error) {
	inner := map[planner.ColID]bool{}
	for _, col := range a.Input.Schema() {
		inner[col.ID] = true
	}
	g := &planner.Aggregate{Input: a.Input, Aggs: a.Aggs}
	var joinConds []planner.Expr
	var keyCols []planner.Column
	for _, e := range corr {
		call, ok := e.(*planner.Call)
		if !ok || call.Fn != "=" {
			return nil, unsupported("with GROUP BY and a correlation other than equalities")
		}
		l, r := call.Args[0], call.Args[1]
		if readsAny(l, inner) {
			l, r = r, l
		}
		if !readsOnly(l, outerRefs) || !readsOnly(r, inner) {
			return nil, unsupported("with GROUP BY and this correlation")
		}
		col := b.newCol("key", "", r.Type())
		g.Groups = append(g.Groups, r)
		g.Out = append(g.Out, col)
		keyCols = append(keyCols, col)
		joinConds = append(joinConds, &planner.Call{Fn: "=", Args: []planner.Expr{l, &planner.ColRef{Col: col}}, T: columnar.TBool})
	}
	g.Groups = append(g.Groups, a.Groups...)
	g.Out = append(g.Out, a.Out...)
	var node planner.Node = g
	for i := len(havings) - 1; i >= 0; i-- {
		node = &planner.Filter{Input: node, Cond: havings[i].Cond}
	}
	sub := &boundSub{right: node, corr: joinConds}
	if valueExpr != nil {
		p := &planner.Project{Input: node}
		sub.value = b.newCol("subquery", "", valueExpr.Type())
		p.Exprs, p.Out = append(p.Exprs, valueExpr), append(p.Out, sub.value)
		for _, col := range keyCols {
			p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: col}), append(p.Out, col)
		}
		sub.right = p
	}
	return sub, nil
}
