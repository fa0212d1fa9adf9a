package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindBitwise binds DuckDB's integer operators a & b (the wider type), a
// << n and a >> n (a's type; executor call_bitwise.go) and a ^ b, which
// is power in DuckDB (DOUBLE); ok is false for other operators.
func (b *binder) bindBitwise(e *callexpr.BinaryExpr, c ectx) (planner.Expr, bool, error) {
	op := e.Operator
	fn := map[string]string{callexpr.BitAndStr: "bit_and", callexpr.ShiftLeftStr: "shift_left",
		callexpr.ShiftRightStr: "shift_right", callexpr.BitXorStr: "power"}[op]
	if fn == "" {
		return nil, false, nil
	}
	l, err := b.bindExpr(e.Left, c)
	if err != nil {
		return nil, true, err
	}
	r, err := b.bindExpr(e.Right, c)
	if err != nil {
		return nil, true, err
	}
	xs, srcs := []planner.Expr{l, r}, []callexpr.Expr{e.Left, e.Right}
	if fn == "power" {
		s, _ := function.Lookup("power")
		x, err := b.callRegistered(s, "^", xs, srcs, 0, c)
		return x, true, err
	}
	for i, x := range xs {
		if t := x.Type(); !t.IsInteger() && t.ID != columnar.Null && !b.isLiteral(x) {
			return nil, true, b.typeErr(srcs[i], c, "%s expects integers, got %s", op, t)
		}
	}
	if fn == "bit_and" {
		args, t, err := b.unify(xs, srcs, c, false, "apply & to")
		if err != nil {
			return nil, true, err
		}
		if !t.IsInteger() {
			return nil, true, b.typeErr(srcs[0], c, "& expects integers, got %s", t)
		}
		return &planner.Call{Fn: fn, Args: args, T: t}, true, nil
	}
	if l.Type().ID == columnar.Null || !l.Type().IsInteger() {
		if l, err = b.coerce(l, columnar.TInt32, e.Left, c); err != nil {
			return nil, true, err
		}
	}
	n, err := b.coerce(r, columnar.TInt64, e.Right, c)
	if err != nil {
		return nil, true, err
	}
	return &planner.Call{Fn: fn, Args: []planner.Expr{l, n}, T: l.Type()}, true, nil
}

// bindBitNot binds ~x, the bitwise complement in x's integer type.
func (b *binder) bindBitNot(e *callexpr.UnaryExpr, c ectx) (planner.Expr, error) {
	x, err := b.bindExpr(e.Expr, c)
	if err != nil {
		return nil, err
	}
	t := x.Type()
	if t.ID == columnar.Null {
		return x, nil
	}
	if !t.IsInteger() {
		return nil, b.typeErr(e.Expr, c, "~ expects an integer, got %s", t)
	}
	return &planner.Call{Fn: "bit_not", Args: []planner.Expr{x}, T: t}, nil
}
