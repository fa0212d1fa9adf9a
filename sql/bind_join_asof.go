package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// POSITIONAL JOIN and ASOF JOIN, as DuckDB has them.
//
// t POSITIONAL JOIN u pairs rows by position (the shorter side padded
// with NULLs). t ASOF [LEFT] JOIN u ON keys AND t.x op u.y (op one of >=,
// >, <=, <; the equality keys optional) gives each row of t the one row
// of u with equal keys whose y is nearest to x on op's side; USING (k…,
// x) takes its last column as x >= x. Both bind their sides as any join
// does (joinItems), then take the node it made apart.

// bindPositionalJoin binds l POSITIONAL JOIN r.
func (b *binder) bindPositionalJoin(l, r *fromItem, right ast.TableRef) (*fromItem, error) {
	it, err := b.joinItems(l, r, planner.JoinCross, joinCond{right: right}, false)
	if err != nil {
		return nil, err
	}
	it.node = &planner.PositionalJoin{Left: l.node, Right: r.node}
	return it, nil
}

// bindAsofJoin binds l ASOF [LEFT] JOIN r ON … | USING (…).
func (b *binder) bindAsofJoin(t *ast.Join, l, r *fromItem) (*fromItem, error) {
	at := b.q.tokAt(t.Start)
	kind := planner.JoinInner
	switch {
	case t.Natural:
		return nil, b.errAt(at, ErrUnsupported, "NATURAL ASOF JOIN is not supported (write ON or USING)")
	case t.Kind == "LEFT":
		kind = planner.JoinLeft
	case t.Kind != "INNER":
		return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("%s ASOF JOIN is not supported (ASOF JOIN or ASOF LEFT JOIN)", t.Kind))
	}
	it, err := b.joinItems(l, r, kind, joinCondOf(b, t), false)
	if err != nil {
		return nil, err
	}
	j, ok := it.node.(*planner.Join)
	if !ok {
		return nil, fmt.Errorf("internal error: ASOF JOIN bound to %T", it.node)
	}
	aj := &planner.AsofJoin{Left: j.Left, Right: j.Right, EquiKeys: j.EquiKeys, Outer: kind == planner.JoinLeft}
	refuse := func() error {
		return b.errAt(at, ErrUnsupported, "ASOF JOIN needs exactly one inequality (>=, >, <=, <) between the two sides, beside equalities")
	}
	if len(t.Using) > 0 {
		// USING (k…, x): the last column is the inequality x >= x.
		if j.Cond != nil || len(aj.EquiKeys) == 0 {
			return nil, refuse()
		}
		last := aj.EquiKeys[len(aj.EquiKeys)-1]
		aj.EquiKeys = aj.EquiKeys[:len(aj.EquiKeys)-1]
		aj.L, aj.R, aj.Op = last.L, last.R, executor.AsofGE
		it.node = aj
		return it, nil
	}
	conds := planner.SplitAnd(j.Cond)
	if len(conds) != 1 {
		return nil, refuse()
	}
	c, ok := conds[0].(*planner.Call)
	ops := map[string]executor.AsofOp{">=": executor.AsofGE, ">": executor.AsofGT, "<=": executor.AsofLE, "<": executor.AsofLT}
	op, known := ops[fcn(c)]
	if !ok || !known || len(c.Args) != 2 {
		return nil, refuse()
	}
	lcols, rcols := colIDs(j.Left.Schema()), colIDs(j.Right.Schema())
	x, y := c.Args[0], c.Args[1]
	switch {
	case readsOnly(x, lcols) && readsOnly(y, rcols):
	case readsOnly(x, rcols) && readsOnly(y, lcols):
		// u.y < t.x is t.x > u.y.
		x, y = y, x
		op = map[executor.AsofOp]executor.AsofOp{executor.AsofGE: executor.AsofLE, executor.AsofGT: executor.AsofLT, executor.AsofLE: executor.AsofGE, executor.AsofLT: executor.AsofGT}[op]
	default:
		return nil, refuse()
	}
	aj.L, aj.R, aj.Op = x, y, op
	it.node = aj
	return it, nil
}

// fcn is c's function name ("" for a nil call).
func fcn(c *planner.Call) string {
	if c == nil {
		return ""
	}
	return c.Fn
}

func colIDs(cols []planner.Column) map[planner.ColID]bool {
	m := make(map[planner.ColID]bool, len(cols))
	for _, c := range cols {
		m[c.ID] = true
	}
	return m
}
