package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// unionByName binds DuckDB's UNION [ALL] BY NAME: the sides' columns are
// matched by name (case-insensitively), not position. The output has the
// left side's columns, then those only the right side has; a side without
// a column gives NULL for it. Types are unified per column as UNION does.
func (b *binder) unionByName(n *planner.SetOp, l, r *Bound, c ectx) (*Bound, error) {
	ls, rs := l.Root.Schema(), r.Root.Schema()
	find := func(names []string, name string) int {
		for i, x := range names {
			if strings.EqualFold(x, name) {
				return i
			}
		}
		return -1
	}
	// A name twice on one side matches nothing unambiguously: DuckDB
	// refuses it.
	for _, side := range [][]string{l.Names, r.Names} {
		for i, name := range side {
			if find(side[:i], name) >= 0 {
				return nil, b.errAt(c.sp.lo, ErrAmbiguousColumn, fmt.Sprintf("UNION BY NAME does not take a name twice in a SELECT list: %q", name))
			}
		}
	}
	names := append([]string(nil), l.Names...)
	for _, name := range r.Names {
		if find(names, name) < 0 {
			names = append(names, name)
		}
	}
	side := func(cols []planner.Column, sideNames []string, name string) planner.Expr {
		if i := find(sideNames, name); i >= 0 {
			return &planner.ColRef{Col: cols[i]}
		}
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}
	}
	lp := &planner.Project{Input: l.Root}
	rp := &planner.Project{Input: r.Root}
	for _, name := range names {
		xs := []planner.Expr{side(ls, l.Names, name), side(rs, r.Names, name)}
		xs, t, err := b.unifySetOp(xs, c) // bind_setop_types.go
		if err != nil {
			return nil, err
		}
		lp.Exprs = append(lp.Exprs, xs[0])
		lp.Out = append(lp.Out, b.newCol(name, "", t))
		rp.Exprs = append(rp.Exprs, xs[1])
		rp.Out = append(rp.Out, b.newCol(name, "", t))
		n.Out = append(n.Out, b.newCol(name, "", t))
	}
	n.Left, n.Right = lp, rp
	return &Bound{Root: n, Names: names}, nil
}
