package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// DuckDB's "n" forms of the extremes: max(x, n) / min(x, n) are the LIST
// of the n largest (smallest) non-NULL x, best first; arg_max(arg, val,
// n) / arg_min(arg, val, n) (max_by, min_by, argmax, argmin) the LIST of
// the args of the n rows with the largest (smallest) val, rows with a
// NULL arg or val skipped. NULL for a group without such rows. n is a
// constant integer in [1, 1000000). DISTINCT keeps one row of each
// (arg, val) pair; ORDER BY orders the input, which decides only among
// rows tied on val. Executed by planner.AggArgMaxN / AggArgMinN
// (executor/aggstate_topn.go); OVER a window, through GROUP BY's binder
// (bind_window_any.go).

// maxTopN is DuckDB's bound on n (exclusive).
const maxTopN = 1000000

// bindTopN binds max/min(x, n) (fn AggMax or AggMin) and arg_max/arg_min(arg,
// val, n) (fn AggArgMax or AggArgMin).
func (b *binder) bindTopN(fn planner.AggFunc, name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, error) {
	extreme := fn == planner.AggMin || fn == planner.AggMax
	nb, label := 2, "arg_min/arg_max"
	if extreme {
		nb, label = 1, "MIN/MAX"
	}
	xs, ac, err := b.aggArgs(name, e, args, star, at, c, aggArity{lo: nb + 1, hi: nb + 1, bind: nb}) // bind_agg_args.go
	if err != nil {
		return nil, err
	}
	for k, x := range xs {
		if x.Type().ID == columnar.Null {
			xs[k] = &planner.Const{Val: columnar.NullValue(columnar.TInt32)} // as DuckDB types max(NULL, 2)
		}
	}
	val := xs[len(xs)-1]
	if t := val.Type(); !t.IsNested() {
		if _, _, err := b.aggType(planner.AggMax, name, val, args[nb-1:], c); err != nil {
			return nil, err
		}
	}
	n, err := b.topNCount(label, "n", args[nb], ac, c)
	if err != nil {
		return nil, err
	}
	kind := planner.AggArgMaxN
	if fn == planner.AggMin || fn == planner.AggArgMin {
		kind = planner.AggArgMinN
	}
	call := planner.AggCall{Func: kind, Arg: xs[0], Type: columnar.ListOf(xs[0].Type()), Param: planner.TopNParam(n, e.Distinct)}
	if !extreme {
		call.Arg2 = xs[1]
	}
	key := fmt.Sprintf("%s(%s|%s)", kind, xs[0], call.Param)
	if call.Arg2 != nil {
		key = fmt.Sprintf("%s(%s, %s|%s)", kind, xs[0], xs[1], call.Param)
	}
	return &planner.ColRef{Col: b.agg.aggCols[b.aggIndex(key, call)]}, nil
}

// topNCount binds n (what: its name in errors), src, as DuckDB checks it:
// a constant integer, not NULL, in [1, maxTopN).
func (b *binder) topNCount(label, what string, src callexpr.Expr, ac, c ectx) (int64, error) {
	y, err := b.bindExpr(src, ac)
	if err != nil {
		return 0, err
	}
	k, ok := planner.FoldExpr(y).(*planner.Const)
	switch {
	case !ok:
		return 0, b.typeErr(src, c, "Invalid input for %s: %s must be a constant", label, what)
	case k.Val.Null:
		return 0, b.typeErr(src, c, "Invalid input for %s: %s value cannot be NULL", label, what)
	case !k.Val.Type.IsInteger() || k.Val.Type.Wide():
		return 0, b.typeErr(src, c, "Invalid input for %s: %s must be an integer, not %s", label, what, k.Val.Type)
	}
	n := k.Val.I
	if k.Val.Type.Phys() == columnar.PhysUint && n < 0 {
		n = maxTopN // a UBIGINT past int64: too large
	}
	switch {
	case n <= 0:
		return 0, b.typeErr(src, c, "Invalid input for %s: %s value must be > 0", label, what)
	case n >= maxTopN:
		return 0, b.typeErr(src, c, "Invalid input for %s: %s value must be < %d", label, what, maxTopN)
	}
	return n, nil
}

// bindApproxTopK binds approx_top_k(x, k): the LIST of the k most frequent
// non-NULL x, most frequent first (planner.AggApproxTopK, counted exactly:
// executor/aggstate_topk.go); k as n above. DISTINCT counts each value
// once; ORDER BY orders the input, which decides among values as frequent.
func (b *binder) bindApproxTopK(name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, error) {
	xs, ac, err := b.aggArgs(name, e, args, star, at, c, aggArity{lo: 2, hi: 2, bind: 1}) // bind_agg_args.go
	if err != nil {
		return nil, err
	}
	x := xs[0]
	if x.Type().ID == columnar.Null {
		x = &planner.Const{Val: columnar.NullValue(columnar.TInt32)}
	}
	k, err := b.topNCount("approx_top_k", "k", args[1], ac, c)
	if err != nil {
		return nil, err
	}
	call := planner.AggCall{Func: planner.AggApproxTopK, Arg: x, Distinct: e.Distinct, Type: columnar.ListOf(x.Type()), Param: columnar.IntValue(columnar.TInt64, k)}
	d := ""
	if e.Distinct {
		d = "DISTINCT "
	}
	return &planner.ColRef{Col: b.agg.aggCols[b.aggIndex(fmt.Sprintf("%s(%s%s|%d)", call.Func, d, x, k), call)]}, nil
}
