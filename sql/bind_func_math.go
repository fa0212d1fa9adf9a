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
		if t.ID == columnar.Null || !t.IsInteger() && b.flexible(x, columnar.TInt64, false) {
			// A string literal is read as a BIGINT; an integer literal
			// keeps its INTEGER width (bit_count(-1) is 32, as DuckDB).
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
	} else if !t.IsNumeric() && !t.Wide() {
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

// bindRounding binds floor, ceil and round, whose DECIMAL results narrow
// their scale to the digits kept (roundedDecimal).
func (b *binder) bindRounding(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	call := func(fn string, t columnar.Type, args ...planner.Expr) planner.Expr {
		return &planner.Call{Fn: fn, Args: args, T: t}
	}
	num := func(i int) (planner.Expr, error) {
		t := xs[i].Type()
		if t.ID == columnar.Null {
			return b.coerce(xs[i], columnar.TFloat64, srcs[i], c)
		}
		if b.flexible(xs[i], columnar.TFloat64, false) {
			return b.coerce(xs[i], columnar.TFloat64, srcs[i], c)
		}
		if !isNum(t) { // HUGEINT, UHUGEINT, DECIMAL(19..38) too (executor kernel_wide.go)
			return nil, b.typeErr(srcs[i], c, "%s expects a number, got %s", name, t)
		}
		return xs[i], nil
	}
	integer := func(i int, to columnar.Type) (planner.Expr, error) {
		t := xs[i].Type()
		if t.ID != columnar.Null && !t.IsInteger() && !b.flexible(xs[i], to, false) {
			return nil, b.typeErr(srcs[i], c, "%s expects an integer, got %s", name, t)
		}
		return b.coerce(xs[i], to, srcs[i], c)
	}
	n := len(xs)
	switch name {
	case "floor", "ceil", "ceiling":
		if n != 1 {
			return nil, true, b.arity(at, name, "1")
		}
		x, err := num(0)
		if err != nil {
			return nil, true, err
		}
		fn := name
		if fn == "ceiling" {
			fn = "ceil"
		}
		if id := x.Type().ID; id == columnar.Hugeint || id == columnar.Uhugeint {
			// DuckDB has no 128-bit integer floor/ceil: they take a DOUBLE.
			x = &planner.Cast{Arg: x, To: columnar.TFloat64}
		}
		return roundedDecimal(call(fn, x.Type(), x), 0), true, nil
	case "round":
		if n != 1 && n != 2 {
			return nil, true, b.arity(at, name, "1 or 2")
		}
		x, err := num(0)
		if err != nil {
			return nil, true, err
		}
		args := []planner.Expr{x}
		digits := 0
		if n == 2 {
			d, err := integer(1, columnar.TInt32)
			if err != nil {
				return nil, true, err
			}
			args = append(args, d)
			k, ok := d.(*planner.Const)
			switch {
			case ok && !k.Val.Null:
				digits = int(k.Val.I)
			case x.Type().IsDecimal() && !ok:
				// The result's scale depends on the digits (DuckDB: no
				// ROUND(DECIMAL, column) overload).
				return nil, true, b.errAt(at, ErrType, "ROUND of a DECIMAL needs a constant number of digits")
			default:
				return call("round", x.Type(), args...), true, nil
			}
		}
		return roundedDecimal(call("round", x.Type(), args...), digits), true, nil
	}
	return nil, false, nil
}

// bindTrunc binds trunc(x) toward zero (integers are whole already) and
// trunc(x, digits).
func (b *binder) bindTrunc(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) == 2 {
		x, err := b.bindTruncDigits(xs, srcs, c)
		return x, true, err
	}
	if len(xs) != 1 {
		return nil, true, b.arity(at, name, "1 or 2")
	}
	t := xs[0].Type()
	if t.IsInteger() || t.ID == columnar.Hugeint || t.ID == columnar.Uhugeint {
		return xs[0], true, nil
	}
	if !t.IsNumeric() && t.ID != columnar.Null {
		return nil, true, b.typeErr(srcs[0], c, "trunc expects a number, got %s", t)
	}
	f, err := b.coerce(xs[0], columnar.TFloat64, srcs[0], c)
	if err != nil {
		return nil, true, err
	}
	return &planner.Call{Fn: "trunc", Args: []planner.Expr{f}, T: columnar.TFloat64}, true, nil
}

// bindLog binds log(x), base 10, and log(b, x), base b, as in DuckDB.
func (b *binder) bindLog(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) != 1 && len(xs) != 2 {
		return nil, true, b.arity(at, name, "1 or 2")
	}
	if len(xs) == 1 {
		x, err := b.callRules("log10", xs, srcs, at, c)
		return x, true, err
	}
	var fs [2]planner.Expr
	for i := range 2 {
		f, err := b.coerce(xs[i], columnar.TFloat64, srcs[i], c)
		if err != nil {
			return nil, true, err
		}
		fs[i] = &planner.Call{Fn: "ln", Args: []planner.Expr{f}, T: columnar.TFloat64}
	}
	// Base 1 divides by ln(1) = 0: DuckDB's error, not an infinity, with
	// the setting ieee_floating_point_ops on or off.
	zero := &planner.Const{Val: columnar.FloatValue(columnar.TFloat64, 0)}
	return &planner.Case{T: columnar.TFloat64,
		Whens: []planner.When{{Cond: &planner.Call{Fn: "=", Args: []planner.Expr{fs[0], zero}, T: columnar.TBool},
			Then: failWith("division by zero in based logarithm", columnar.TFloat64)}}, // bind_ieee.go
		Else: &planner.Call{Fn: "/", Args: []planner.Expr{fs[1], fs[0]}, T: columnar.TFloat64}}, true, nil
}

// bindGreatest binds greatest and least over arguments unified to one
// type.
func (b *binder) bindGreatest(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) == 0 {
		return nil, true, b.arity(at, name, "1 or more")
	}
	args, t, err := b.unify(xs, srcs, c, false, "compare")
	if err != nil {
		return nil, true, err
	}
	return &planner.Call{Fn: name, Args: args, T: t}, true, nil
}

// bindMod binds mod(x, y) as x % y over numbers unified to one type.
func (b *binder) bindMod(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) != 2 {
		return nil, true, b.arity(at, name, "2")
	}
	args, t, err := b.unify(xs, srcs, c, false, "apply mod to")
	if err != nil {
		return nil, true, err
	}
	if !t.IsNumeric() {
		return nil, true, b.typeErr(srcs[0], c, "mod expects numbers, got %s", t)
	}
	return b.zeroDivisorNull(&planner.Call{Fn: "%", Args: args, T: t}), true, nil
}

// bindFloatDivision binds fmod and fdiv by their rules, with a zero
// divisor's answer as ieee_floating_point_ops says (bind_ieee.go).
func (b *binder) bindFloatDivision(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	x, err := b.callRules(name, xs, srcs, at, c)
	if err != nil {
		return nil, true, err
	}
	return b.zeroDivisorNull(x), true, nil
}
