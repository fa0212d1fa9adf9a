package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// argMinMaxAggs are DuckDB's arg_max / arg_min, their aliases, and
// arg_max_null / arg_min_null.
var argMinMaxAggs = map[string]planner.AggFunc{
	"arg_max": planner.AggArgMax, "argmax": planner.AggArgMax, "max_by": planner.AggArgMax,
	"arg_min": planner.AggArgMin, "argmin": planner.AggArgMin, "min_by": planner.AggArgMin,
	"arg_max_null": planner.AggArgMax, "arg_min_null": planner.AggArgMin,
}

// arg_max_null(arg, val) / arg_min_null(arg, val) are DuckDB's arg_max /
// arg_min whose arg may be NULL: the arg of the row with the largest
// (smallest) non-NULL val, NULL or not. They run as arg_max of the arg
// boxed in a one-field STRUCT, never NULL itself (so no row is skipped
// for its arg), unboxed after the aggregate.
var argNullAggs = map[string]bool{"arg_max_null": true, "arg_min_null": true}

// boxArg is the one-field STRUCT holding x.
func boxArg(x planner.Expr) planner.Expr {
	return &planner.Call{Fn: "struct_pack", Args: []planner.Expr{x}, T: columnar.StructOf(columnar.Field{Name: "arg", Type: x.Type()})}
}

// unboxArg is the field of a boxArg result (NULL where no row had a val).
func unboxArg(x planner.Expr) planner.Expr {
	return &planner.Call{Fn: "struct_extract", Args: []planner.Expr{x, &planner.Const{Val: columnar.IntValue(columnar.TInt64, 0)}}, T: x.Type().Fields()[0].Type}
}

// bindArgMinMax binds arg_max(arg, val) / arg_min(arg, val): the arg of a
// row with the largest (smallest) non-NULL val, typed as arg; NULL when
// every val is NULL. Ties: the first row seen (any one under threads).
// DISTINCT, which DuckDB takes, leaves one row of each (arg, val) pair:
// the same arg wins (only which of tied rows does may change, arbitrary
// in DuckDB too), so it is dropped.
func (b *binder) bindArgMinMax(fn planner.AggFunc, name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, error) {
	if len(args) == 3 && !argNullAggs[name] && !star {
		return b.bindTopN(fn, name, e, args, star, at, c) // bind_agg_topn.go
	}
	xs, _, err := b.aggArgs(name, e, args, star, at, c, aggArity{lo: 2, hi: 2, bind: 2}) // bind_agg_args.go
	if err != nil {
		return nil, err
	}
	for k, x := range xs {
		if x.Type().ID == columnar.Null {
			// an untyped NULL: no row has a val, or the arg is NULL
			xs[k] = &planner.Const{Val: columnar.NullValue(columnar.TInt32)}
		}
	}
	if argNullAggs[name] {
		xs[0] = boxArg(xs[0])
	}
	key := fmt.Sprintf("%s(%s, %s)", fn, xs[0], xs[1])
	i := b.aggIndex(key, planner.AggCall{Func: fn, Arg: xs[0], Arg2: xs[1], Type: xs[0].Type()})
	ref := &planner.ColRef{Col: b.agg.aggCols[i]}
	if argNullAggs[name] {
		return unboxArg(ref), nil
	}
	return ref, nil
}
