package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindPairAgg binds covar_pop, covar_samp, corr and regr_*(y, x): two
// numbers read as DOUBLE (planner/pair_aggs.go); regr_count is UINTEGER,
// the others DOUBLE, as in DuckDB.
func (b *binder) bindPairAgg(fn planner.AggFunc, name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, error) {
	xs, _, err := b.aggArgs(name, e, args, star, at, c, twoArgAgg) // bind_agg_args.go
	if err != nil {
		return nil, err
	}
	for k, a := range args {
		if xs[k], err = b.pairArg(name, xs[k], a, c); err != nil {
			return nil, err
		}
	}
	t := pairType(name)
	key := fmt.Sprintf("%s(%s, %s)", name, xs[0], xs[1])
	i := b.aggIndex(key, planner.AggCall{Func: fn, Arg: xs[0], Arg2: xs[1], Type: t})
	return &planner.ColRef{Col: b.agg.aggCols[i]}, nil
}

// pairArg converts argument x (source src) of pair aggregate name to DOUBLE.
func (b *binder) pairArg(name string, x planner.Expr, src callexpr.Expr, c ectx) (planner.Expr, error) {
	if t := x.Type(); !isNum(t) && t.ID != columnar.Null && !b.flexible(x, columnar.TFloat64, false) {
		return nil, b.typeErr(src, c, "%s expects numbers, got %s", name, t)
	}
	return b.coerce(x, columnar.TFloat64, src, c)
}

// pairType is the result type of pair aggregate name: UINTEGER for
// regr_count, DOUBLE for the others.
func pairType(name string) columnar.Type {
	if name == "regr_count" {
		return columnar.TUint32
	}
	return columnar.TFloat64
}

// bindWindowPair binds a pair aggregate OVER a window (executor/window_acc.go).
func (b *binder) bindWindowPair(f *planner.WindowFunc, args []callexpr.Expr, bindArgs func(lo, hi int) ([]planner.Expr, error), c ectx) error {
	xs, err := bindArgs(2, 2)
	if err != nil {
		return err
	}
	for k := range xs {
		if xs[k], err = b.pairArg(f.Name, xs[k], args[k], c); err != nil {
			return err
		}
	}
	f.Args, f.Type = xs, pairType(f.Name)
	return nil
}
