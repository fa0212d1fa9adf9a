package planner

import (
	"strings"

	"github.com/b2sql/b2sql/executor"
)

// buildJoin builds a HashJoin (a nested-loop join when there are no
// equi-keys). The right input is the build side; an inner join whose left
// input is estimated to be smaller builds the left instead, with a
// projection restoring the column order.
func (bd *builder) buildJoin(n *Join) (executor.Operator, error) {
	if (n.Kind == JoinInner || n.Kind == JoinCross) && smaller(n.Left, n.Right) {
		swapped := &Join{Left: n.Right, Right: n.Left, Kind: n.Kind, Cond: n.Cond}
		for _, k := range n.EquiKeys {
			swapped.EquiKeys = append(swapped.EquiKeys, EquiKey{L: k.R, R: k.L})
		}
		op, err := bd.buildJoinAs(swapped)
		if err != nil {
			return nil, err
		}
		lay := layout(swapped.Schema())
		exprs := make([]executor.Expr, 0, len(n.Schema()))
		names := make([]string, 0, len(n.Schema()))
		for _, c := range n.Schema() {
			exprs = append(exprs, executor.ColumnExpr(lay[c.ID], c.Type))
			names = append(names, c.Name)
		}
		return bd.wrap(&executor.Project{Input: op, Exprs: exprs, Names: names}), nil
	}
	return bd.buildJoinAs(n)
}

func (bd *builder) buildJoinAs(n *Join) (executor.Operator, error) {
	left, err := bd.build(n.Left)
	if err != nil {
		return nil, err
	}
	right, err := bd.build(n.Right)
	if err != nil {
		return nil, err
	}
	llay, rlay := layout(n.Left.Schema()), layout(n.Right.Schema())
	op := &executor.HashJoin{Left: left, Right: right, Kind: executor.JoinKind(n.Kind), NullAware: n.NullAware}
	var desc []string
	for _, k := range n.EquiKeys {
		l, err := CompileExpr(k.L, llay)
		if err != nil {
			return nil, err
		}
		r, err := CompileExpr(k.R, rlay)
		if err != nil {
			return nil, err
		}
		op.LeftKeys = append(op.LeftKeys, l)
		op.RightKeys = append(op.RightKeys, r)
		desc = append(desc, k.L.String()+" = "+k.R.String())
	}
	if n.Cond != nil {
		all := append(append([]Column(nil), n.Left.Schema()...), n.Right.Schema()...)
		c, err := CompileExpr(n.Cond, layout(all))
		if err != nil {
			return nil, err
		}
		op.Cond = c
		desc = append(desc, n.Cond.String())
	}
	op.Desc = strings.Join(desc, " AND ")
	return bd.wrap(op), nil
}

// smaller reports whether a is estimated (join_estimate.go) to have fewer
// rows than b; false when either has no estimate.
func smaller(a, b Node) bool {
	ea, oka := estimate(a)
	eb, okb := estimate(b)
	return oka && okb && ea.rows < eb.rows
}
