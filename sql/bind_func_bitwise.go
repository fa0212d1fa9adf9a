package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bitwiseOrOp is the operator bindBitwise reads for a | b: "|" is
// callexpr's BitOrStr, which the older call path reads as ||.
const bitwiseOrOp = "bit|"

// bindBitwise binds DuckDB's integer operators a & b and a | b (the wider
// type), a << n and a >> n (a's type; executor call_bitwise.go) and a ^ b, which
// is power in DuckDB (DOUBLE); ok is false for other operators.
func (b *binder) bindBitwise(e *callexpr.BinaryExpr, c ectx) (planner.Expr, bool, error) {
	op := e.Operator
	fn := map[string]string{callexpr.BitAndStr: "bit_and", bitwiseOrOp: "bit_or", callexpr.ShiftLeftStr: "shift_left",
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
	if x, ok, err := b.bitOperator(op, l, r, srcs, c); ok { // bind_func_bit.go
		return x, true, err
	}
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
	if fn == "bit_and" || fn == "bit_or" {
		args, t, err := b.unify(xs, srcs, c, false, "apply "+op+" to")
		if err != nil {
			return nil, true, err
		}
		if !t.IsInteger() {
			return nil, true, b.typeErr(srcs[0], c, "%s expects integers, got %s", op, t)
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
	if t.ID == columnar.Bit {
		return &planner.Call{Fn: "bits_not", Args: []planner.Expr{x}, T: t}, nil // executor/func_bit.go
	}
	if !t.IsInteger() {
		return nil, b.typeErr(e.Expr, c, "~ expects an integer, got %s", t)
	}
	return &planner.Call{Fn: "bit_not", Args: []planner.Expr{x}, T: t}, nil
}

// bitOperator binds a & b, a | b (both BITs of one length), a << n and
// a >> n (n an INTEGER) when a is a BIT, as the internal bits_* calls
// (executor/func_bit.go); ok is false otherwise.
func (b *binder) bitOperator(op string, l, r planner.Expr, srcs []callexpr.Expr, c ectx) (planner.Expr, bool, error) {
	if l.Type().ID != columnar.Bit && (r.Type().ID != columnar.Bit || op == callexpr.ShiftLeftStr || op == callexpr.ShiftRightStr) {
		return nil, false, nil
	}
	fn := map[string]string{callexpr.BitAndStr: "bits_and", bitwiseOrOp: "bits_or",
		callexpr.ShiftLeftStr: "bits_shift_left", callexpr.ShiftRightStr: "bits_shift_right"}[op]
	if fn == "" {
		return nil, true, b.typeErr(srcs[0], c, "%s is not defined for BIT", op)
	}
	to := columnar.TBit
	if fn == "bits_shift_left" || fn == "bits_shift_right" {
		to = columnar.TInt32
	}
	l, err := b.coerce(l, columnar.TBit, srcs[0], c)
	if err != nil {
		return nil, true, err
	}
	if r, err = b.coerce(r, to, srcs[1], c); err != nil {
		return nil, true, err
	}
	return &planner.Call{Fn: fn, Args: []planner.Expr{l, r}, T: columnar.TBit}, true, nil
}
