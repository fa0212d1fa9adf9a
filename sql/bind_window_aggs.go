package sql

import (
	"errors"
	"fmt"
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// windowAggNames are the functions that aggregate a frame, so DISTINCT is
// valid in them.
var windowAggNames = map[string]bool{
	"count": true, "sum": true, "avg": true, "mean": true, "min": true, "max": true,
	"var_samp": true, "variance": true, "var_pop": true, "stddev": true, "stddev_samp": true, "stddev_pop": true,
	"bool_and": true, "bool_or": true, "median": true, "quantile_cont": true,
	"string_agg": true, "group_concat": true, "listagg": true, "approx_count_distinct": true,
	"quantile_disc": true, "quantile": true, "mode": true,
	"count_if": true, "countif": true, "any_value": true,
	"skewness": true, "kurtosis": true, "kurtosis_pop": true, "product": true, "sem": true, "fsum": true, "kahan_sum": true,
	"sumkahan": true, "favg": true, "entropy": true, "mad": true, "covar_pop": true, "covar_samp": true, "corr": true,
	"regr_count": true, "regr_avgx": true, "regr_avgy": true, "regr_slope": true, "regr_intercept": true,
	"regr_r2": true, "regr_sxx": true, "regr_syy": true, "regr_sxy": true,
	"list": true, "array_agg": true,
}

// windowAggs are the plain aggregates bindWindowCall binds itself.
var windowAggs = map[string]bool{"count": true, "sum": true, "avg": true, "min": true, "max": true, "mean": true}

// orderedWindowFuncs are the functions whose value depends on the order
// their frame's rows are taken in: an ORDER BY inside their parentheses
// orders each frame (executor/window_argorder.go). For the others it
// changes nothing and is dropped, so they keep their faster paths.
var orderedWindowFuncs = map[string]bool{
	"string_agg": true, "list": true, "first_value": true, "last_value": true, "nth_value": true,
	"arg_max": true, "arg_min": true, "mode": true,
	"row_number": true, "rank": true, "ntile": true, "percent_rank": true, "cume_dist": true, "lag": true, "lead": true,
}

// windowArgOrder binds the ORDER BY inside a window call's parentheses
// (string_agg(x, ',' ORDER BY y) OVER …), which orders the rows of an
// aggregate's frame. row_number, rank, percent_rank, cume_dist, ntile,
// lag and lead then rank or step within the frame sorted by it
// (executor/window_argrank.go); DuckDB refuses it in dense_rank, and an
// EXCLUDE clause beside it in those functions, and so does b2sql.
func (b *binder) windowArgOrder(w winCall, bindW func(callexpr.Expr) (planner.Expr, error)) ([]planner.SortKey, error) {
	if len(w.argOrder) == 0 {
		return nil, nil
	}
	switch w.name {
	case "dense_rank":
		return nil, b.errAt(w.argOrderAt, ErrSyntax, fmt.Sprintf("ORDER BY is not supported for the window function %q", w.name))
	case "row_number", "rank", "ntile", "percent_rank", "cume_dist", "lag", "lead":
		if w.frame != nil && w.frame.exclude != planner.ExcludeNoOthers {
			return nil, b.errAt(w.argOrderAt, ErrSyntax, fmt.Sprintf("EXCLUDE is not supported for the window function %q", w.name))
		}
	}
	var keys []planner.SortKey
	for _, o := range w.argOrder {
		x, err := bindW(o.expr)
		if err != nil {
			return nil, err
		}
		keys = append(keys, planner.SortKey{Expr: x, Desc: o.desc, NullsFirst: o.nullsFirst})
	}
	return keys, nil
}

// windowNames lists every function usable with OVER, for hints.
func windowNames() []string {
	out := []string{"row_number", "rank", "dense_rank", "ntile", "lag", "lead", "fill", "first_value", "last_value",
		"percent_rank", "cume_dist", "nth_value", "first", "last"}
	for n := range windowAggNames {
		out = append(out, n)
	}
	for n := range argMinMaxAggs {
		out = append(out, n)
	}
	return out
}

// errViaGroupBy is bindWindowAgg's answer for a call the window's frame
// function computes otherwise than GROUP BY (and DuckDB): the caller
// binds it through GROUP BY's binder (bind_window_any.go).
var errViaGroupBy = errors.New("bound through GROUP BY's binder")

// bindWindowAgg binds the aggregates that GROUP BY computes as rewrites or
// holistic aggregates (bind_agg_holistic.go) as frame aggregates, with the
// same types: bool_and/bool_or are min/max over BOOLEAN; median and
// quantile_cont(x, q) DOUBLE; string_agg(x [, sep]) (group_concat,
// listagg) VARCHAR, in the window's order; approx_count_distinct counts
// the frame's distinct values exactly.
func (b *binder) bindWindowAgg(f *planner.WindowFunc, args []callexpr.Expr, star bool, at int,
	bindArgs func(lo, hi int) ([]planner.Expr, error), c ectx) error {
	name := f.Name
	lo, hi := 1, 1
	switch name {
	case "quantile_cont", "quantile_disc", "quantile":
		lo, hi = 2, 2
	case "string_agg", "group_concat", "listagg":
		hi = 2
	}
	xs, err := bindArgs(lo, hi)
	if err != nil {
		return err
	}
	constant := func(i int) (columnar.Value, error) {
		k, ok := planner.FoldExpr(xs[i]).(*planner.Const)
		if !ok || k.Val.Null {
			return columnar.Value{}, b.errAt(b.argTok(at, i), ErrType, fmt.Sprintf("%s expects a constant as argument %d", name, i+1))
		}
		return k.Val, nil
	}
	t := xs[0].Type()
	switch name {
	case "bool_and", "bool_or":
		if t.ID != columnar.Bool && t.ID != columnar.Null {
			return b.typeErr(args[0], c, "%s expects BOOLEAN, got %s", name, t)
		}
		f.Name, f.Type = "min", columnar.TBool
		if name == "bool_or" {
			f.Name = "max"
		}
		f.Args = []planner.Expr{xs[0]}
		if t.ID == columnar.Null {
			f.Args[0] = &planner.Const{Val: columnar.NullValue(columnar.TBool)}
		}
	case "median", "quantile_cont":
		if t.IsDecimal() {
			// DuckDB interpolates DECIMALs in DECIMAL, as GROUP BY does.
			return errViaGroupBy
		}
		if t.Wide() {
			// HUGEINT and DECIMAL(19..38) interpolate as DOUBLE, as DuckDB's do.
			xs[0], t = &planner.Cast{Arg: xs[0], To: columnar.TFloat64}, columnar.TFloat64
		}
		if !t.IsNumeric() && t.ID != columnar.Null && t.ID != columnar.Time {
			return b.typeErr(args[0], c, "%s(%s) is not supported", name, t)
		}
		f.Name, f.Args, f.Type = "median", []planner.Expr{timeMicros(xs[0])}, columnar.TFloat64
		if lo == 2 {
			v, err := constant(1)
			if err != nil {
				return err
			}
			q := v.AsFloat()
			if !v.Type.IsNumeric() || !(q >= 0 && q <= 1) { // NaN too
				return b.errAt(b.argTok(at, 1), ErrType, fmt.Sprintf("%s expects a fraction between -1 and 1", name))
			}
			f.Name, f.Param = "quantile_cont", columnar.FloatValue(columnar.TFloat64, q)
		}
	case "string_agg", "group_concat", "listagg":
		x, err := b.coerce(xs[0], columnar.TVarchar, args[0], c)
		if err != nil {
			return err
		}
		f.Name, f.Args, f.Type, f.Param = "string_agg", []planner.Expr{x}, columnar.TVarchar, columnar.StringValue(",")
		if len(xs) == 2 {
			v, err := constant(1)
			if err != nil {
				return err
			}
			if v.Type.ID != columnar.Varchar {
				return b.errAt(b.argTok(at, 1), ErrType, fmt.Sprintf("%s expects a string separator", name))
			}
			f.Param = v
		}
	case "list", "array_agg":
		x := xs[0]
		if t.ID == columnar.Null { // as list(NULL) in GROUP BY (bind_agg_holistic.go)
			var err error
			if x, err = b.coerce(x, columnar.TInt32, args[0], c); err != nil {
				return err
			}
		}
		f.Name, f.Args, f.Type = "list", []planner.Expr{x}, columnar.ListOf(x.Type())
		if k, ok := x.(*planner.Call); ok && k.Fn == "filter_keep" {
			// FILTER: list the kept rows' boxes (executor/call_list_filter.go);
			// bindWindowCall unboxes the result.
			box := &planner.Call{Fn: "filter_box", Args: k.Args, T: columnar.ListOf(x.Type())}
			f.Args, f.Type = []planner.Expr{box}, columnar.ListOf(box.T)
		}
	case "approx_count_distinct":
		f.Name, f.Args, f.Type, f.Distinct = "count", xs, columnar.TInt64, true
	case "quantile_disc", "quantile", "mode":
		// One of the frame's values, of x's type (bind_agg_value.go).
		fn := map[string]planner.AggFunc{"quantile_disc": planner.AggQuantileDisc, "quantile": planner.AggQuantileDisc, "mode": planner.AggMode}[name]
		q, err := b.valueAggParam(fn, name, xs[0], args, constant, c)
		if err != nil {
			return err
		}
		f.Args, f.Type, f.Param = xs[:1], t, q
		if name == "quantile" {
			f.Name = "quantile_disc"
		}
	}
	return nil
}

// bindWindowArgMinMax binds arg_max(arg, val) and arg_min(arg, val) (and
// their aliases) over a frame: the arg of the frame row with the largest
// (smallest) non-NULL val, typed as arg; NULL when every val is NULL. A
// tie keeps the earliest row in frame order.
func (b *binder) bindWindowArgMinMax(f *planner.WindowFunc, bindArgs func(lo, hi int) ([]planner.Expr, error)) error {
	xs, err := bindArgs(2, 2)
	if err != nil {
		return err
	}
	for k, x := range xs {
		if x.Type().ID == columnar.Null {
			// An untyped NULL: no row has a val, or every arg is NULL.
			xs[k] = &planner.Const{Val: columnar.NullValue(columnar.TInt32)}
		}
	}
	if argNullAggs[f.Name] {
		xs[0] = boxArg(xs[0]) // unboxed by the caller (bind_window.go)
	}
	if argMinMaxAggs[f.Name] == planner.AggArgMin {
		f.Name = "arg_min"
	} else {
		f.Name = "arg_max"
	}
	f.Args, f.Type = xs, xs[0].Type()
	return nil
}

// wideWindowSum binds SUM OVER a window of a HUGEINT, DECIMAL, BIGINT or
// UBIGINT argument as window sums of its 32-bit limbs, recombined (as
// wideSum does for GROUP BY): HUGEINT or DECIMAL(38,s), exact, as in
// DuckDB.
func (b *binder) wideWindowSum(f planner.WindowFunc, arg planner.Expr) planner.Expr {
	limbs := limbExprs(arg)
	for k, l := range limbs {
		g := f
		g.Name, g.Args, g.Type = "sum", []planner.Expr{l}, columnar.TInt64
		limbs[k] = b.addWindowFunc(g)
	}
	return &planner.Call{Fn: "wide_sum", Args: limbs, T: limbSumType(arg.Type())}
}

// windowExactAvg binds AVG OVER a window of an integer or DECIMAL as the
// GROUP BY one (exactAvg): the frame's exact sum and count, divided once
// by avg_of_sum as DuckDB divides.
func (b *binder) windowExactAvg(f planner.WindowFunc, arg planner.Expr) planner.Expr {
	var sum planner.Expr
	if windowLimbSum(planner.AggSum, arg.Type()) {
		sum = b.wideWindowSum(f, arg)
	} else {
		g := f
		g.Name, g.Args, g.Type = "sum", []planner.Expr{arg}, columnar.TInt64
		sum = b.addWindowFunc(g)
	}
	g := f
	g.Name, g.Args, g.Type = "count", []planner.Expr{arg}, columnar.TInt64
	n := b.addWindowFunc(g)
	narrow := &planner.Const{Val: columnar.BoolValue(columnar.AvgNarrow(arg.Type()))}
	return &planner.Call{Fn: "avg_of_sum", Args: []planner.Expr{sum, n, narrow}, T: columnar.TFloat64}
}

// windowIntervalAvg binds avg(x) OVER a window of an INTERVAL.
func (b *binder) windowIntervalAvg(f planner.WindowFunc, x planner.Expr) planner.Expr {
	args := intervalAvgArgs(x, func(name string, arg planner.Expr) planner.Expr {
		g := f
		g.Name, g.Args, g.Type = name, []planner.Expr{arg}, columnar.TInt64
		return b.addWindowFunc(g)
	})
	return &planner.Call{Fn: "interval_avg", Args: args, T: columnar.TInterval}
}

// addWindowFunc adds g to the window node and returns its column.
func (b *binder) addWindowFunc(g planner.WindowFunc) planner.Expr {
	return &planner.ColRef{Col: b.pushWindowFunc(g, g.Name)}
}

// pushWindowFunc adds g to the window node, with the per-row frame
// offsets of the call being bound as its last arguments, and returns its
// column, named name.
func (b *binder) pushWindowFunc(g planner.WindowFunc, name string) planner.Column {
	col := b.newCol(name, "", g.Type)
	b.pushWindowCol(g, col)
	return col
}

// pushWindowCol adds g to the window node as column col.
func (b *binder) pushWindowCol(g planner.WindowFunc, col planner.Column) {
	g.Args = append(slices.Clip(g.Args), b.win.frameArgs...)
	b.win.funcs = append(b.win.funcs, g)
	b.win.cols = append(b.win.cols, col)
}

// nestedWindowMinMax binds min(x) or max(x) OVER a window of a LIST,
// STRUCT or MAP x as arg_min(x, x) or arg_max(x, x), as GROUP BY does
// (bind_agg.go): the frame's smallest (largest) non-NULL value in DuckDB's
// order of nested values, whose arg_min/arg_max state keeps whole values.
// It reports whether it bound f.
func nestedWindowMinMax(f *planner.WindowFunc, fn planner.AggFunc, x planner.Expr) bool {
	if (fn != planner.AggMin && fn != planner.AggMax) || !x.Type().IsNested() {
		return false
	}
	f.Name = "arg_min"
	if fn == planner.AggMax {
		f.Name = "arg_max"
	}
	f.Args, f.Type = []planner.Expr{x, x}, x.Type()
	return true
}
