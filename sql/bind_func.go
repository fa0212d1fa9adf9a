package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

var aggFuncs = map[string]planner.AggFunc{
	"count": planner.AggCount, "sum": planner.AggSum, "avg": planner.AggAvg, "mean": planner.AggAvg,
	"min": planner.AggMin, "max": planner.AggMax,
	"first": planner.AggFirst, "last": planner.AggLast, "arbitrary": planner.AggFirst,
}

// args returns the argument expressions of a call (nil for count(*)).
func (b *binder) callArgs(e *callexpr.FuncExpr, at int) ([]callexpr.Expr, bool, error) {
	var out []callexpr.Expr
	star := false
	for _, a := range e.Exprs {
		switch a := a.(type) {
		case *callexpr.AliasedExpr:
			out = append(out, a.Expr)
		case *callexpr.StarExpr:
			star = true
		default:
			return nil, false, b.errAt(at, ErrSyntax, "unexpected argument")
		}
	}
	return out, star, nil
}

func (b *binder) bindFunc(e *callexpr.FuncExpr, c ectx) (planner.Expr, error) {
	name := e.Name.Lowered()
	at := b.q.tok(e.At)
	if !e.Qualifier.IsEmpty() {
		return nil, b.errAt(at, ErrUnknownFunction, fmt.Sprintf("unknown function %q", e.Qualifier.String()+"."+name))
	}
	args, star, err := b.callArgs(e, at)
	if err != nil {
		return nil, err
	}
	if x, ok, err := b.bindAggRewrite(name, e, args, star, at, c); ok {
		return x, err
	}
	if fn, ok := aggFuncs[name]; ok {
		return b.bindAgg(fn, name, e, args, star, at, c)
	}
	if fn, ok := holisticAggs[name]; ok {
		return b.bindHolistic(fn, name, e, args, star, at, c)
	}
	if star {
		return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("%s(*) is not valid", name))
	}
	if e.Distinct {
		return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("DISTINCT is only valid in aggregate functions, not %s", name))
	}
	if name == "unnest" && len(args) == 1 {
		// A special form (DuckDB's BoundUnnestExpression), not a function
		// of the registry.
		x, err := b.bindExpr(args[0], c)
		if err != nil {
			return nil, err
		}
		return b.unnestCall(x, args[0], false, 1, at, c) // bind_unnest.go
	}
	return b.bindScalarCall(name, args, at, c) // bind_func_hooks.go
}

// roundedDecimal narrows the scale of a rounded DECIMAL result to the digits
// kept, as DuckDB does for round/floor/ceil of DECIMAL(p,s):
// the kernel keeps its input type, and the cast of a value already rounded
// to d digits is exact. Other types, and digits not known at bind time
// (or not below the scale), are left alone.
func roundedDecimal(x planner.Expr, digits int) planner.Expr {
	t := x.Type()
	p, s := int(t.Precision), int(t.Scale)
	switch {
	case !t.IsDecimal() || digits >= s:
		return x
	case digits < 0:
		// Rounding left of the point keeps no decimals and the precision,
		// and the integer digits gain one for the carry
		// (ROUND(9999::DECIMAL(4,0), -1) is 10000, DECIMAL(5,0)); a scaled
		// input already has that room (DECIMAL(10,3) gives DECIMAL(10,0)).
		return &planner.Cast{Arg: x, To: columnar.DecimalType(min(max(p, p-s+1), columnar.MaxDecimal), 0)}
	}
	// Keeping the precision leaves room for the carry (round(9.5) = 10).
	return &planner.Cast{Arg: x, To: columnar.DecimalType(p, digits)}
}
