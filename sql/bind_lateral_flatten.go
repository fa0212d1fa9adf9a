package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// lateralFlatten joins acc and the LATERAL derived table it (bound as bd
// by child) when lateralPatterns cannot: the derived table reads acc's
// columns anywhere (under GROUP BY, a window, a set operation, a join's
// ON, a LIMIT without a WHERE correlation …), or the join has USING. It
// is evaluated once per distinct binding of the columns it reads, by the
// general dependent join of correlated subqueries
// (bind_subquery_flatten.go); that result reads no outer column, so it
// joins acc as any FROM item does (joinItems: ON, USING), with the
// NULL-safe equality of the binding added to the join's condition. An ON
// holding a subquery is a filter over the joined rows, so only under an
// inner join (DuckDB refuses other joins on a subquery condition too).
func (b *binder) lateralFlatten(acc, it *fromItem, bd *Bound, child *binder, kind planner.JoinKind, cond joinCond, t *ast.Derived) (*fromItem, error) {
	at := b.q.tokAt(t.Start)
	if cond.onSubquery && kind != planner.JoinInner && kind != planner.JoinCross {
		return nil, b.errAt(at, ErrUnsupported, "a subquery in the ON of a LEFT JOIN LATERAL is not supported (DuckDB refuses subqueries in any LATERAL join condition)")
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
	var binding []planner.Expr
	drop := map[planner.ColID]bool{}
	for _, o := range f.outer {
		binding = append(binding, sameValue(&planner.ColRef{Col: o}, &planner.ColRef{Col: carried[o.ID]})...)
		drop[carried[o.ID].ID] = true
	}
	flat := *it
	flat.node = right // the carried copies are in its rows, not in its columns
	jc := cond
	if cond.onSubquery {
		jc = joinCond{right: cond.right} // ON goes above, as a filter
	}
	res, err := b.joinItems(acc, &flat, kind, jc, false)
	if err != nil {
		return nil, err
	}
	j, ok := res.node.(*planner.Join)
	if p, isProject := res.node.(*planner.Project); isProject { // USING's merged columns
		j, ok = p.Input.(*planner.Join)
	}
	if !ok {
		return nil, fmt.Errorf("sql: internal error: a lateral join bound as %T", res.node)
	}
	if j.Kind == planner.JoinCross {
		j.Kind = planner.JoinInner
	}
	keys, rest := planner.SplitJoinCond(planner.JoinAnd(binding), acc.node.Schema(), right.Schema())
	j.EquiKeys = append(j.EquiKeys, keys...)
	if rest != nil {
		j.Cond = planner.JoinAnd(append(nonNil(j.Cond), rest))
	}
	if cond.onSubquery {
		pairs, x, err := b.bindPairCond(res, res.node, cond, b.q.spanOf(t)) // bind_join_subquery.go
		if err != nil {
			return nil, err
		}
		res.node = &planner.Filter{Input: pairs, Cond: x}
	}
	// The carried copies of the binding go no further.
	p := &planner.Project{Input: res.node}
	for _, c := range res.node.Schema() {
		if !drop[c.ID] {
			p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: c}), append(p.Out, c)
		}
	}
	res.node = p
	return res, nil
}

// nonNil is x as a list, empty for nil.
func nonNil(x planner.Expr) []planner.Expr {
	if x == nil {
		return nil
	}
	return []planner.Expr{x}
}
