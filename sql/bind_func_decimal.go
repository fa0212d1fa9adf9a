package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// decimal_division and decimal_average, DuckDB's exact DECIMAL division
// and average (its current tests; DuckDB 1.5 has neither), computed by
// the executor (call_decimal_division.go).

// bindDecimalDivision types decimal_division(a, b [, scale]): DECIMAL(p1 −
// s1 + s2 + s, s), s the constant scale or max(6, s1 + p2 + 1); a width or
// scale past 38 cannot hold the exact quotient and is an error, as in
// DuckDB.
func (b *binder) bindDecimalDivision(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) != 2 && len(xs) != 3 {
		return nil, true, b.arity(at, name, "2 or 3")
	}
	var ts [2]columnar.Type
	for i := range ts {
		t := xs[i].Type()
		if !t.IsDecimal() {
			return nil, true, b.typeErr(srcs[i], c, "%s expects DECIMAL arguments, got %s", name, t)
		}
		ts[i] = t
	}
	p1, s1, p2, s2 := int(ts[0].Precision), int(ts[0].Scale), int(ts[1].Precision), int(ts[1].Scale)
	scale := max(6, s1+p2+1)
	if len(xs) == 3 {
		k, ok := planner.FoldExpr(xs[2]).(*planner.Const)
		if !ok || k.Val.Null || !k.Val.Type.IsInteger() {
			return nil, true, b.typeErr(srcs[2], c, "%s expects a constant integer scale", name)
		}
		if k.Val.I < 0 || k.Val.I > columnar.MaxDecimal {
			return nil, true, b.typeErr(srcs[2], c, "%s: scale must be between 0 and %d", name, columnar.MaxDecimal)
		}
		scale = int(k.Val.I)
	}
	width := p1 - s1 + s2 + scale
	if width > columnar.MaxDecimal || scale > columnar.MaxDecimal {
		return nil, true, b.errAt(at, ErrType, fmt.Sprintf("%s: could not perform an accurate division: the result would need DECIMAL(%d,%d)", name, width, scale))
	}
	return &planner.Call{Fn: "decimal_division", Args: xs[:2], T: columnar.DecimalType(max(width, 1), scale)}, true, nil
}

// bindDecimalAverage binds decimal_average([DISTINCT] x) of a DECIMAL: the
// exact sum, as SUM(x) binds it, over count(x) at x's own type, rounded
// half to even.
func (b *binder) bindDecimalAverage(name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, error) {
	xs, _, err := b.aggArgs(name, e, args, star, at, c, aggArity{lo: 1, hi: 1, bind: 1}) // bind_agg_args.go
	if err != nil {
		return nil, err
	}
	x := xs[0]
	t := x.Type()
	if !t.IsDecimal() {
		return nil, b.typeErr(args[0], c, "%s expects a DECIMAL, got %s", name, t)
	}
	var sum planner.Expr
	if limbSum(planner.AggSum, t) {
		sum = b.wideSum(x, e.Distinct)
	} else {
		sum = b.addAgg(planner.AggCall{Func: planner.AggSum, Arg: x, Distinct: e.Distinct, Type: limbSumType(t)})
	}
	n := b.addAgg(planner.AggCall{Func: planner.AggCount, Arg: x, Distinct: e.Distinct, Type: columnar.TInt64})
	return &planner.Call{Fn: "decimal_avg", Args: []planner.Expr{sum, n}, T: t}, nil
}
