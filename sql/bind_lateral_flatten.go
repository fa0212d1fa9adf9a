package sql

import (
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// lateralFlatten joins acc and the LATERAL derived table it (bound as bd
// by child) when lateralPatterns cannot: the derived table reads acc's
// columns anywhere (under GROUP BY, a window, a set operation, a join's
// ON, a LIMIT without a WHERE correlation …). It is evaluated once per
// distinct binding of the columns it reads, by the general dependent join
// of correlated subqueries (bind_subquery_flatten.go), and joined to acc
// NULL-safely on them; ON, also under LEFT JOIN, joins as part of that
// condition.
func (b *binder) lateralFlatten(acc, it *fromItem, bd *Bound, child *binder, kind planner.JoinKind, cond joinCond, t *ast.Derived) (*fromItem, error) {
	at := b.q.tokAt(t.Start)
	if len(cond.using) > 0 || cond.onSubquery {
		return nil, b.errAt(at, ErrUnsupported, "LATERAL subquery with USING or a subquery in ON is not supported")
	}
	f, err := b.newFlattener(acc.node, child.outerRefs, at)
	if err != nil {
		return nil, err
	}
	if len(f.outer) == 0 {
		// Only columns of queries further out: no lateral join here.
		return b.joinItems(acc, it, kind, cond, false)
	}
	right, carried, err := f.push(bd.Root)
	if err != nil {
		return nil, err
	}
	var conds []planner.Expr
	for _, o := range f.outer {
		conds = append(conds, sameValue(&planner.ColRef{Col: o}, &planner.ColRef{Col: carried[o.ID]})...)
	}
	res := lateralItem(acc, it, nil)
	if cond.on != nil {
		x, err := b.lateralOn(res, cond, t)
		if err != nil {
			return nil, err
		}
		conds = append(conds, x)
	}
	if kind == planner.JoinCross {
		kind = planner.JoinInner
	}
	j := &planner.Join{Left: acc.node, Right: right, Kind: kind}
	j.EquiKeys, j.Cond = planner.SplitJoinCond(planner.JoinAnd(conds), acc.node.Schema(), right.Schema())
	// Only acc's and the derived table's columns go on, not the carried
	// copies of the binding.
	p := &planner.Project{Input: j}
	for _, c := range acc.node.Schema() {
		p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: c}), append(p.Out, c)
	}
	for _, c := range bd.Root.Schema() {
		p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: c}), append(p.Out, c)
	}
	res.node = p
	return res, nil
}
