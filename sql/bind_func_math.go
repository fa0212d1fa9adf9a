package sql

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindMathFunc binds pi() and bit_count(integer); ok is false
// for other names.
func (b *binder) bindMathFunc(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	switch name {
	case "pi":
		if len(xs) != 0 {
			return nil, true, b.arity(at, name, "0")
		}
		return &planner.Const{Val: columnar.FloatValue(columnar.TFloat64, math.Pi)}, true, nil
	case "bit_count":
		// Counted in the argument's own width, so the type is kept.
		if len(xs) != 1 {
			return nil, true, b.arity(at, name, "1")
		}
		x, t := xs[0], xs[0].Type()
		if t.ID == columnar.Null || b.flexible(x, columnar.TInt64, false) {
			y, err := b.coerce(x, columnar.TInt64, srcs[0], c)
			if err != nil {
				return nil, true, err
			}
			x = y
		} else if !t.IsInteger() {
			return nil, true, b.typeErr(srcs[0], c, "bit_count expects an integer, got %s", t)
		}
		return &planner.Call{Fn: "bit_count", Args: []planner.Expr{x}, T: columnar.TInt8}, true, nil
	}
	return nil, false, nil
}

// bindTruncDigits binds trunc(x, n): toward zero at n decimal digits,
// keeping x's type; a DECIMAL narrows its scale to n (0 when n < 0) when
// n is a constant, as DuckDB types it.
func (b *binder) bindTruncDigits(xs []planner.Expr, srcs []callexpr.Expr, c ectx) (planner.Expr, error) {
	x, t := xs[0], xs[0].Type()
	if t.ID == columnar.Null || t.ID == columnar.Uint64 || b.flexible(x, columnar.TFloat64, false) {
		y, err := b.coerce(x, columnar.TFloat64, srcs[0], c)
		if err != nil {
			return nil, err
		}
		x, t = y, columnar.TFloat64
	} else if !t.IsNumeric() {
		return nil, b.typeErr(srcs[0], c, "trunc expects a number, got %s", t)
	}
	if nt := xs[1].Type(); nt.ID != columnar.Null && !nt.IsInteger() && !b.flexible(xs[1], columnar.TInt64, false) {
		return nil, b.typeErr(srcs[1], c, "trunc expects an integer number of digits, got %s", nt)
	}
	n, err := b.coerce(xs[1], columnar.TInt64, srcs[1], c)
	if err != nil {
		return nil, err
	}
	out := planner.Expr(&planner.Call{Fn: "trunc_digits", Args: []planner.Expr{x, n}, T: t})
	if k, ok := n.(*planner.Const); ok && !k.Val.Null {
		out = roundedDecimal(out, int(max(k.Val.I, 0)))
	}
	return out, nil
}
