package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// Every aggregate is a window function, as in DuckDB. The window path
// binds the common ones itself (bindWindowCall), to frame functions with
// fast paths of their own; any other aggregate GROUP BY knows (quantile
// lists, histogram, bit_and, approx_quantile, decimal_average, …) is bound
// by GROUP BY's binder into a collector of its own, then each aggregate
// call it made becomes a window function that computes that call over
// each row's frame with GROUP BY's aggregate state
// (executor/window_agg.go), and the expression GROUP BY's binder built
// over the calls' columns (a cast, a list of quantiles, a sorted list's
// entries) reads the window's columns instead.

// anyWindowAgg reports whether name is an aggregate the window path binds
// through GROUP BY's binder (bindWindowAny): an aggregate it has no frame
// function of its own for.
func anyWindowAgg(name string) bool {
	_, plain := aggFuncs[name]
	return isAggName(name) && !plain && !windowAggNames[name] && !windowAggs[name] && argMinMaxAggs[name] == 0
}

// aggSyntax is what bindWindowAny reads of the window call: the
// aggregate's name, DISTINCT, the span of its name, IGNORE or RESPECT
// NULLS (nil: neither).
type aggSyntax struct {
	name     string
	distinct bool
	nameAt   ast.Span
	nulls    *nullsMode
}

// bindWindowAny binds aggregate w (args: its arguments, FILTER folded in
// by filteredArgs) over the window f already holds: PARTITION BY, ORDER
// BY, frame. The arguments are bound as the window's (bindW: in an
// aggregating query, over the grouped rows), literals left as written for
// the aggregates that read them; the call is then bound by GROUP BY's
// binder with a collector of its own as the Aggregate.
func (b *binder) bindWindowAny(w aggSyntax, f planner.WindowFunc, args []callexpr.Expr, star bool,
	bindW func(callexpr.Expr) (planner.Expr, error), c ectx) (planner.Expr, error) {
	if w.nulls != nil {
		return nil, b.errAt(w.nulls.at, ErrSyntax, fmt.Sprintf("IGNORE NULLS and RESPECT NULLS are only valid for lag, lead, first_value, last_value and nth_value, not %s", w.name))
	}
	fe := &callexpr.FuncExpr{At: w.nameAt, Name: callexpr.NewColIdent(w.name), Distinct: w.distinct}
	if star {
		fe.Exprs = callexpr.SelectExprs{&callexpr.StarExpr{}}
	}
	for _, a := range args {
		if s, ok := a.(*syntaxSrc); ok {
			if _, lit := s.n.(*ast.Literal); lit {
				fe.Exprs = append(fe.Exprs, &callexpr.AliasedExpr{Expr: callArg(s.n)})
				continue
			}
		}
		x, err := bindW(a)
		if err != nil {
			return nil, err
		}
		fe.Exprs = append(fe.Exprs, &callexpr.AliasedExpr{Expr: &boundArg{x: x, src: a}})
	}
	outer := b.agg
	b.agg = &aggState{aggKeys: map[string]int{}}
	ac := c
	ac.aggOK, ac.inAgg = true, false
	x, err := b.bindFunc(fe, ac)
	calls := b.agg
	b.agg = outer
	if err != nil {
		return nil, err
	}
	for i, call := range calls.aggs {
		g := f
		g.Name, g.Aggregate, g.Agg = call.Func.String(), true, call.Func
		g.Args = nil
		for _, a := range []planner.Expr{call.Arg, call.Arg2} {
			if a != nil {
				g.Args = append(g.Args, a)
			}
		}
		g.Distinct, g.Type, g.Param = call.Distinct, call.Type, call.Param
		b.pushWindowCol(g, calls.aggCols[i])
	}
	return x, nil
}
