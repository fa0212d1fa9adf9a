package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// Aggregates defined in terms of the executor's, by rewriting the call's
// parse tree and binding the result:
//
//	bool_and(x)   min(x), bool_or(x) max(x), over BOOLEAN
//	count_if(x)   count(CASE WHEN x THEN 1 END), over BOOLEAN
//	any_value(x)  min(x): one of the group's non-NULL values
//	count(DISTINCT a, b, …)  distinct rows with no NULL (as MySQL)
var aggRewrites = map[string]bool{"bool_and": true, "bool_or": true, "count_if": true, "countif": true, "any_value": true}

// rewriteAgg returns the call that aggregate call e of a name in
// aggRewrites (other than bool_*) stands for; also used OVER a window. The
// nodes it makes carry at, the span of the call's name.
func rewriteAgg(name string, a callexpr.Expr, at ast.Span) *callexpr.FuncExpr {
	switch name {
	case "count_if", "countif":
		one := callexpr.NewIntVal([]byte("1"), at)
		return fn("count", at, false, &callexpr.CaseExpr{At: at, Whens: []*callexpr.When{{Cond: a, Val: one}}})
	case "any_value":
		return fn("min", at, false, a)
	}
	return nil
}

// distinctRowKey is the one value count(DISTINCT a, b, …) counts: NULL
// when any argument is NULL, else the arguments' texts, each prefixed by
// its length so that no two rows collide. at is the span of count.
func distinctRowKey(args []callexpr.Expr, at ast.Span) callexpr.Expr {
	var key []callexpr.Expr
	var anyNull callexpr.Expr
	for _, a := range args {
		key = append(key, fn("length", at, false, fn("concat", at, false, a)), callexpr.NewStrVal([]byte(":"), at), a)
		isNull := &callexpr.IsExpr{Operator: callexpr.IsNullStr, Expr: a}
		if anyNull == nil {
			anyNull = isNull
		} else {
			anyNull = &callexpr.OrExpr{Left: anyNull, Right: isNull}
		}
	}
	return &callexpr.CaseExpr{At: at, Whens: []*callexpr.When{{Cond: anyNull, Val: &callexpr.NullVal{}}}, Else: fn("concat", at, false, key...)}
}

// bindAggRewrite binds the aggregates above; ok is false for other calls.
func (b *binder) bindAggRewrite(name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, bool, error) {
	if name == "count" && e.Distinct && len(args) > 1 {
		x, err := b.bindExpr(fn("count", e.At, true, distinctRowKey(args, e.At)), c)
		return x, true, err
	}
	if name == "count_star" && len(args) == 0 && !star {
		x, err := b.bindAgg(planner.AggCount, "count", e, nil, true, at, c) // DuckDB's name of count(*)
		return x, true, err
	}
	if name == "grouping" || name == "grouping_id" {
		x, err := b.bindGrouping(name, args, star, at, c)
		return x, true, err
	}
	if (name == "min" || name == "max") && len(args) == 2 && !star {
		fn := map[string]planner.AggFunc{"min": planner.AggMin, "max": planner.AggMax}[name]
		x, err := b.bindTopN(fn, name, e, args, star, at, c) // max(x, n): bind_agg_topn.go
		return x, true, err
	}
	if fn, ok := argMinMaxAggs[name]; ok {
		x, err := b.bindArgMinMax(fn, name, e, args, star, at, c)
		return x, true, err
	}
	if name == "approx_top_k" {
		x, err := b.bindApproxTopK(name, e, args, star, at, c) // bind_agg_topn.go
		return x, true, err
	}
	if name == "lttb" {
		x, err := b.bindLttb(name, e, args, star, at, c) // bind_agg_lttb.go
		return x, true, err
	}
	if name == "decimal_average" {
		x, err := b.bindDecimalAverage(name, e, args, star, at, c) // bind_func_decimal.go
		return x, true, err
	}
	if name == "histogram" || name == "histogram_exact" {
		x, err := b.bindHistogram(name, e, args, star, at, c) // bind_agg_histogram.go
		return x, true, err
	}
	if fn, ok := planner.PairAggNames[name]; ok {
		x, err := b.bindPairAgg(fn, name, e, args, star, at, c) // bind_agg_pair.go
		return x, true, err
	}
	if r := statMacro(name, args, e.At); r != nil && !star && !e.Distinct { // bind_agg_stats.go
		x, err := b.bindExpr(r, c)
		return x, true, err
	}
	if !aggRewrites[name] {
		return nil, false, nil
	}
	if star || len(args) != 1 || e.Distinct {
		return nil, true, b.arity(at, name, "1")
	}
	a := args[0]
	if r := rewriteAgg(name, a, e.At); r != nil {
		if name != "any_value" {
			t, err := b.bindExpr(a, ectx{sp: c.sp, clause: c.clause, inAgg: true})
			if err != nil {
				return nil, true, err
			}
			if t.Type().ID != columnar.Bool && t.Type().ID != columnar.Null {
				return nil, true, b.typeErr(a, c, "%s expects BOOLEAN, got %s", name, t.Type())
			}
		}
		x, err := b.bindExpr(r, c)
		return x, true, err
	}
	if strings.HasPrefix(name, "bool_") {
		agg := "min"
		if name == "bool_or" {
			agg = "max"
		}
		x, err := b.bindExpr(fn(agg, e.At, false, a), c)
		if err == nil && x.Type().ID != columnar.Bool {
			return nil, true, b.typeErr(a, c, "%s expects BOOLEAN, got %s", name, x.Type())
		}
		return x, true, err
	}
	return nil, false, nil
}
