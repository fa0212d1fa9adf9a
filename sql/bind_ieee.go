package sql

import (
	"fmt"
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// ieee_floating_point_ops = false: a floating-point division or remainder
// by zero (x / 0, x % 0.0, fmod(x, 0), fdiv(x, 0)) is NULL instead of the
// IEEE 754 answer (inf, -inf or NaN), as in DuckDB 1.5; and, as DuckDB's
// later releases do (its test suite: test_pow.test, test_trigo.test), the
// math functions that would answer a NaN or an infinity from finite
// arguments fail instead: sin, cos, tan and cot of an infinity ("input
// value inf is out of range for numeric function"), and zero to a
// negative power. DuckDB 1.5 gives inf for the latter either way and
// fails for the former either way; with the setting on (the default)
// b2sql gives what IEEE 754 does (NaN, inf), as those later releases do.
// An integer // or % by zero is NULL whatever the setting.

// ieeeOff reports whether the session has ieee_floating_point_ops off.
func (b *binder) ieeeOff() bool { return !b.settingOn("ieee_floating_point_ops", true) }

// zeroDivisorNull makes the division or remainder x (a call whose second
// argument divides) NULL for a zero divisor when IEEE semantics are off:
// its divisor y becomes nullif(y, 0), which is NULL for 0 and -0.
func (b *binder) zeroDivisorNull(x planner.Expr) planner.Expr {
	call, ok := x.(*planner.Call)
	if !ok || len(call.Args) != 2 || !b.ieeeOff() {
		return x
	}
	y := call.Args[1]
	switch y.Type().ID {
	case columnar.Float64, columnar.Float32:
	default:
		return x
	}
	zero := &planner.Const{Val: columnar.FloatValue(y.Type(), 0)}
	c := *call
	c.Args = []planner.Expr{call.Args[0], &planner.Call{Fn: "nullif", Args: []planner.Expr{y, zero}, T: y.Type()}}
	return &c
}

// strictMath is the call x of a math function as ieee_floating_point_ops
// = false has it: a CASE that fails for the arguments that IEEE 754
// answers with a NaN or an infinity, x itself otherwise.
func (b *binder) strictMath(x *planner.Call) planner.Expr {
	var whens []planner.When
	switch x.Fn {
	case "sin", "cos", "tan", "cot":
		if len(x.Args) != 1 || x.Args[0].Type().ID != columnar.Float64 || !b.ieeeOff() {
			return x
		}
		for _, inf := range []float64{math.Inf(1), math.Inf(-1)} {
			v := columnar.FloatValue(columnar.TFloat64, inf)
			whens = append(whens, planner.When{
				Cond: &planner.Call{Fn: "=", Args: []planner.Expr{x.Args[0], &planner.Const{Val: v}}, T: columnar.TBool},
				Then: failWith(fmt.Sprintf("input value %s is out of range for numeric function", v.String()), x.T)})
		}
	case "power":
		if len(x.Args) != 2 || x.Args[0].Type().ID != columnar.Float64 || x.Args[1].Type().ID != columnar.Float64 || !b.ieeeOff() {
			return x
		}
		zero := &planner.Const{Val: columnar.FloatValue(columnar.TFloat64, 0)}
		cond := &planner.Call{Fn: "and", T: columnar.TBool, Args: []planner.Expr{
			&planner.Call{Fn: "=", Args: []planner.Expr{x.Args[0], zero}, T: columnar.TBool},
			&planner.Call{Fn: "<", Args: []planner.Expr{x.Args[1], zero}, T: columnar.TBool}}}
		whens = append(whens, planner.When{Cond: cond, Then: failWith("zero raised to a negative power is undefined", x.T)})
	default:
		return x
	}
	return &planner.Case{Whens: whens, Else: x, T: x.T}
}

// failWith is error(msg), of type t: the query fails where it is
// evaluated.
func failWith(msg string, t columnar.Type) planner.Expr {
	return &planner.Call{Fn: "error", Args: []planner.Expr{&planner.Const{Val: columnar.StringValue(msg)}}, T: t}
}
