package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindXor binds xor(a, b) of two integers, in their common type (a BIT
// pair went to the BIT overload, bitCall).
func (b *binder) bindXor(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) != 2 {
		return nil, true, b.arity(at, name, "2")
	}
	for i, x := range xs {
		if t := x.Type(); !t.IsInteger() && t.ID != columnar.Null && !b.isLiteral(x) {
			return nil, true, b.typeErr(srcs[i], c, "%s expects integers or bitstrings, got %s", name, t)
		}
	}
	args, t, err := b.unify(xs, srcs, c, false, "apply xor to")
	if err != nil {
		return nil, true, err
	}
	if t.ID == columnar.Null {
		return &planner.Const{Val: columnar.NullValue(columnar.TInt32)}, true, nil
	}
	if !t.IsInteger() {
		return nil, true, b.typeErr(srcs[0], c, "%s expects integers, got %s", name, t)
	}
	return &planner.Call{Fn: "xor", Args: args, T: t}, true, nil
}
