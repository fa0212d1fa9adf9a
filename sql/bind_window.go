package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindWindowAST binds a call with OVER from the syntax tree: its named
// windows resolved against the SELECT's WINDOW clause (b.sel), then as
// bindWindow.
func (b *binder) bindWindowAST(f *ast.Func, c ectx) (planner.Expr, error) {
	name := strings.ToLower(f.Name[0].Name)
	at := b.q.tokAt(f.Start)
	over := b.q.tokAt(f.Over.Start)
	if !b.q.toks[min(over, len(b.q.toks)-1)].is("OVER") && over > 0 {
		over-- // OVER ( … ): the window's span starts at "("
	}
	if err := b.windowAllowed(over, c); err != nil {
		return nil, err
	}
	b.win.binding++
	defer func() { b.win.binding-- }()
	spec, err := b.resolveWindowAST(f.Over, over)
	if err != nil {
		return nil, err
	}
	countStar := name == "count_star" && len(f.Args) == 0 // count_star() is count(*)
	if countStar {
		name = "count"
	}
	w := winCall{name: name, distinct: f.Distinct, at: at, over: over, star: starCall(f) || countStar, nameAt: f.Name.Last().Span}
	if err := w.checkDistinct(b); err != nil {
		return nil, err
	}
	for _, a := range f.Args {
		w.args = append(w.args, astSrc(a))
	}
	ordered := name == "any_value" && len(f.OrderBy) > 0
	if len(w.args) == 1 && f.Filter == nil && !ordered {
		// count_if and any_value are other aggregates (bind_agg_rewrite.go).
		if r := rewriteAgg(name, w.args[0], f.Name.Last().Span); r != nil {
			if w.args, _, err = b.callArgs(r, at); err != nil {
				return nil, err
			}
			w.name = r.Name.Lowered()
		}
	}
	if f.Filter != nil {
		if !windowAggNames[name] && argMinMaxAggs[name] == 0 && !anyWindowAgg(name) {
			return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("FILTER is only valid for aggregate functions, not %s", name))
		}
		w.args, w.star = filteredArgs(name, w.args, w.star, f.Filter, f.Name.Last().Span)
	}
	// Partition and order keys only compare: x COLLATE name partitions
	// and orders by the collation (bind_collate.go).
	for _, p := range spec.PartitionBy {
		b.collateOrderKey(p)
		w.partition = append(w.partition, astSrc(p))
	}
	for _, o := range spec.OrderBy {
		b.collateOrderKey(o.X)
		desc, nullsFirst := b.sortOrder(o)
		w.order = append(w.order, winOrder{expr: astSrc(o.X), desc: desc, nullsFirst: nullsFirst})
	}
	for _, o := range f.OrderBy {
		b.collateOrderKey(o.X)
		w.argOrder = append(w.argOrder, winOrder{expr: astSrc(o.X), desc: o.Desc, nullsFirst: o.Nulls == "FIRST"})
	}
	if len(f.OrderBy) > 0 {
		w.argOrderAt = max(b.q.tokAt(f.OrderBy[0].Start)-2, 0) // ORDER, two tokens before the first key
	}
	if w.frame, err = b.astFrame(spec.Frame); err != nil {
		return nil, err
	}
	if f.Nulls != ast.NullsDefault {
		w.nulls = &nullsMode{ignore: f.Nulls == ast.IgnoreNulls, at: b.q.tok(f.NullsAt)}
	}
	if ordered && w.nulls == nil {
		// any_value(x ORDER BY k): the frame's first non-NULL x in k order,
		// as GROUP BY's (sortedPick).
		w.name, w.nulls = "first_value", &nullsMode{ignore: true, at: at}
	}
	nf, nc := len(b.win.funcs), len(b.win.cols)
	x, err := b.bindWindowCall(w, c)
	if err != nil && isAggName(w.name) && !anyWindowAgg(w.name) {
		// An aggregate the window's own frame functions refuse (median of
		// VARCHAR, a list of quantiles) may still be GROUP BY's: bound
		// through its binder (bind_window_any.go), or the error stands.
		b.win.funcs, b.win.cols = b.win.funcs[:nf], b.win.cols[:nc]
		w.viaGroupBy = true
		if y, err2 := b.bindWindowCall(w, c); err2 == nil {
			return y, nil
		}
		b.win.funcs, b.win.cols = b.win.funcs[:nf], b.win.cols[:nc]
	}
	return x, err
}

// filteredArgs folds a window aggregate's FILTER (WHERE cond) into its
// arguments: agg(filter_keep(x, cond), …) (x where cond is true, else
// NULL), whose NULLs every window aggregate skips (count(*) counts
// filter_keep(1, cond)), but list, which lists boxes instead
// (bind_window_aggs.go); arg_max(arg, val) wraps val, whose NULL rows it
// skips. (GROUP BY aggregates filter their input: bind_agg_filter.go.)
func filteredArgs(name string, args []callexpr.Expr, star bool, cond ast.Expr, at ast.Span) ([]callexpr.Expr, bool) {
	k := 0
	if argMinMaxAggs[name] != 0 && len(args) == 2 {
		k = 1
	}
	if star || len(args) == 0 {
		args, star = []callexpr.Expr{callexpr.NewIntVal([]byte("1"), at)}, false
	}
	out := append([]callexpr.Expr(nil), args...)
	out[k] = &callexpr.FilterExpr{Val: args[k], Cond: astSrc(cond)}
	return out, star
}

// bindFilterArg binds an argument under FILTER: filter_keep(x, cond)
// (executor/kernel_filter_keep.go), which evaluates x on every row, as
// DuckDB computes aggregate arguments before it filters (an error in x
// is one even in a row the filter leaves out).
func (b *binder) bindFilterArg(e *callexpr.FilterExpr, c ectx) (planner.Expr, error) {
	cond, err := b.bindExpr(e.Cond, c)
	if err != nil {
		return nil, err
	}
	if cond, err = b.boolean(cond, e.Cond, c, "FILTER"); err != nil {
		return nil, err
	}
	x, err := b.bindExpr(e.Val, c)
	if err != nil {
		return nil, err
	}
	return &planner.Call{Fn: "filter_keep", Args: []planner.Expr{x, cond}, T: x.Type()}, nil
}

// resolveWindowAST resolves OVER w, OVER (w …) and WINDOW definitions in
// terms of one another as resolveWindow does.
func (b *binder) resolveWindowAST(o *ast.Window, over int) (*ast.Window, error) {
	spec := &ast.Window{PartitionBy: o.PartitionBy, OrderBy: o.OrderBy, Frame: o.Frame}
	var defs []*ast.NamedWindow
	if b.sel != nil {
		defs = b.sel.Windows
	}
	ref := o.Base
	defAt := len(defs)
	for seen := 0; ref != nil; seen++ {
		at, dups := -1, 0
		for i, d := range defs {
			if strings.EqualFold(d.Name.Name, ref.Name) {
				if dups++; dups == 2 {
					return nil, b.errAt(b.q.tokAt(d.Name.Start), ErrSyntax, fmt.Sprintf("window %q is defined twice", ref.Name))
				}
				at = i
			}
		}
		if at < 0 {
			return nil, b.errAt(b.q.tokAt(ref.Start), ErrUnknownColumn, fmt.Sprintf("unknown window %q", ref.Name))
		}
		if at >= defAt {
			return nil, b.errAt(b.q.tokAt(ref.Start), ErrUnknownColumn, fmt.Sprintf("window %q does not exist before its use in the WINDOW clause", ref.Name))
		}
		defAt = at
		if seen > len(defs) {
			return nil, b.errAt(over, ErrSyntax, fmt.Sprintf("window %q is defined in terms of itself", ref.Name))
		}
		def := defs[at].Window
		if len(def.PartitionBy) > 0 {
			if len(spec.PartitionBy) > 0 {
				return nil, b.errAt(over, ErrSyntax, fmt.Sprintf("cannot override PARTITION BY of window %q", ref.Name))
			}
			spec.PartitionBy = def.PartitionBy
		}
		if len(def.OrderBy) > 0 {
			if len(spec.OrderBy) > 0 {
				return nil, b.errAt(over, ErrSyntax, fmt.Sprintf("cannot override ORDER BY of window %q", ref.Name))
			}
			spec.OrderBy = def.OrderBy
		}
		if def.Frame != nil && seen == 0 && over+1 < len(b.q.toks) && b.q.toks[over+1].isOp("(") {
			return nil, b.errAt(over, ErrSyntax, fmt.Sprintf("cannot copy window %q because it has a frame clause", ref.Name))
		}
		if spec.Frame == nil {
			spec.Frame = def.Frame
		}
		ref = def.Base
	}
	return spec, nil
}

// windowBindable reports whether every expression of an OVER clause has
// a bind case.
func windowBindable(w *ast.Window) bool {
	if !allBindable(w.PartitionBy...) {
		return false
	}
	for _, o := range w.OrderBy {
		if !astBindable(o.X) {
			return false
		}
	}
	if fr := w.Frame; fr != nil {
		for _, bd := range []*ast.Bound{fr.Start, fr.End} {
			if bd != nil && bd.Offset != nil && !astBindable(bd.Offset) {
				return false
			}
		}
	}
	return true
}

// windowAllowed reports a window call (its OVER at token over) where
// none may be.
func (b *binder) windowAllowed(over int, c ectx) error {
	switch {
	case b.win == nil:
		return b.errAt(over, ErrGrouping, fmt.Sprintf("window functions are not allowed in %s", c.clause))
	case b.win.binding > 0:
		return b.errAt(over, ErrGrouping, "window functions cannot be nested")
	case c.inAgg:
		return b.errAt(over, ErrGrouping, "aggregate function calls cannot contain window function calls")
	}
	return nil
}

// winCall is a window function call as either syntax tree gives it, its
// named windows resolved.
type winCall struct {
	name      string
	distinct  bool
	args      []callexpr.Expr
	star      bool
	at, over  int // tokens of the name and of OVER
	partition []callexpr.Expr
	order     []winOrder
	frame     *winFrame  // nil: none
	nulls     *nullsMode // IGNORE / RESPECT NULLS; nil: neither
	// argOrder is the ORDER BY inside the call's parentheses (the
	// token of its ORDER at argOrderAt).
	argOrder   []winOrder
	argOrderAt int
	nameAt     ast.Span // the span of the function's name
	// viaGroupBy: bind the aggregate through GROUP BY's binder
	// (bind_window_any.go) even if the window has a frame function of it.
	viaGroupBy bool
}

type winOrder struct {
	expr             callexpr.Expr
	desc, nullsFirst bool
}

// syntax is what bindWindowAny reads of w.
func (w *winCall) syntax() aggSyntax {
	return aggSyntax{name: w.name, distinct: w.distinct, nameAt: w.nameAt, nulls: w.nulls}
}

// checkDistinct refuses DISTINCT in a window call that takes none, and
// drops it from arg_max and arg_min, whose result it does not change
// (bind_agg_argminmax.go).
func (w *winCall) checkDistinct(b *binder) error {
	if argMinMaxAggs[w.name] != 0 {
		w.distinct = false
	}
	if w.distinct && !windowAggNames[w.name] && !anyWindowAgg(w.name) {
		return b.errAt(w.at, ErrSyntax, fmt.Sprintf("DISTINCT is only valid in aggregate functions, not %s", w.name))
	}
	return nil
}

// bindWindowCall binds a window call whose OVER is allowed here.
func (b *binder) bindWindowCall(w winCall, c ectx) (planner.Expr, error) {
	name, at, over, args, star := w.name, w.at, w.over, w.args, w.star
	var err error
	if name == "count" && w.distinct && len(args) > 1 {
		// count(DISTINCT a, b) OVER counts the frame's distinct rows of
		// non-NULL values, as in GROUP BY (bind_agg_rewrite.go).
		args = []callexpr.Expr{distinctRowKey(args, b.q.tokExtent(at))}
	}
	// In an aggregating query a window reads the grouped rows: its
	// expressions may call aggregates and are finalized like select items.
	wc := c
	wc.aggOK = b.agg != nil
	bindW := func(e callexpr.Expr) (planner.Expr, error) {
		x, err := b.bindExpr(e, wc)
		if err == nil && b.agg != nil {
			x, err = b.finalize(x, e, wc)
		}
		return x, err
	}
	f := planner.WindowFunc{Name: name, Distinct: w.distinct}
	for _, p := range w.partition {
		x, err := bindW(p)
		if err != nil {
			return nil, err
		}
		f.Partition = append(f.Partition, x)
	}
	for _, o := range w.order {
		x, err := bindW(o.expr)
		if err != nil {
			return nil, err
		}
		f.Order = append(f.Order, planner.SortKey{Expr: x, Desc: o.desc, NullsFirst: o.nullsFirst})
	}
	fa, err := b.windowFrame(w.frame, f.Order, over, bindW)
	if err != nil {
		return nil, err
	}
	f.Frame, f.RowArgs.Start, f.RowArgs.End, b.win.frameArgs = fa.frame, fa.start != nil, fa.end != nil, fa.args()
	defer func() { b.win.frameArgs = nil }()

	argOrder, err := b.windowArgOrder(w, bindW) // bind_window_aggs.go
	if err != nil {
		return nil, err
	}
	bindArgs := func(lo, hi int) ([]planner.Expr, error) {
		if star || len(args) < lo || len(args) > hi {
			want := strconv.Itoa(lo)
			if hi > lo {
				want = fmt.Sprintf("%d to %d", lo, hi)
			}
			return nil, b.arity(at, name, want)
		}
		var xs []planner.Expr
		for _, a := range args {
			x, err := bindW(a)
			if err != nil {
				return nil, err
			}
			xs = append(xs, x)
		}
		return xs, nil
	}
	if anyWindowAgg(name) || w.viaGroupBy {
		// The frame's rows reach the aggregate in its own ORDER BY
		// (executor/window_agg.go): max(x, n ORDER BY k)'s ties.
		f.ArgOrder = argOrder
		return b.bindWindowAny(w.syntax(), f, args, star, bindW, c) // bind_window_any.go
	}
	switch name {
	case "row_number", "rank", "dense_rank":
		if _, err := bindArgs(0, 0); err != nil {
			return nil, err
		}
		f.Type = columnar.TInt64
	case "percent_rank", "cume_dist":
		if _, err := bindArgs(0, 0); err != nil {
			return nil, err
		}
		f.Type = columnar.TFloat64
	case "nth_value":
		xs, err := bindArgs(2, 2)
		if err != nil {
			return nil, err
		}
		f.Args, f.Type = xs[:1], xs[0].Type()
		// A position that is no row (NULL, 0, negative) gives NULL, as in
		// DuckDB: computed per row like any that is not a constant.
		k, err := b.rowParam(&f, &f.RowArgs.Offset, xs[1], columnar.TInt64, args[1], wc)
		if err != nil {
			return nil, err
		}
		if k != nil && !k.Null && k.I > 0 {
			f.Args, f.RowArgs.Offset, f.Offset = xs[:1], false, k.I
		}
	case "ntile":
		xs, err := bindArgs(1, 1)
		if err != nil {
			return nil, err
		}
		k, ok := constInt(xs[0])
		if !ok || k <= 0 {
			return nil, b.typeErr(args[0], c, "ntile expects a positive integer constant")
		}
		f.Type, f.Offset = columnar.TInt64, k
	case "lag", "lead":
		xs, err := bindArgs(1, 3)
		if err != nil {
			return nil, err
		}
		f.Args, f.Type, f.Offset = xs[:1], xs[0].Type(), 1
		f.Default = columnar.NullValue(f.Type)
		if len(xs) > 1 {
			// An offset that is not a constant is computed per row; a
			// negative one steps the other way (lag(x, -1) is lead(x, 1)),
			// a NULL one gives NULL (window_rowargs.go).
			k, err := b.rowParam(&f, &f.RowArgs.Offset, xs[1], columnar.TInt64, args[1], wc)
			if err != nil {
				return nil, err
			}
			if k != nil && !k.Null && k.I > math.MinInt64 {
				f.Args, f.RowArgs.Offset, f.Offset = xs[:1], false, k.I
				if k.I < 0 {
					f.Name, f.Offset = map[string]string{"lag": "lead", "lead": "lag"}[name], -k.I
				}
			}
		}
		if len(xs) > 2 {
			k, err := b.rowParam(&f, &f.RowArgs.Default, xs[2], f.Type, args[2], wc)
			if err != nil {
				return nil, err
			}
			if k != nil {
				f.Args, f.RowArgs.Default, f.Default = f.Args[:len(f.Args)-1], false, *k
			}
		}
	case "fill":
		xs, err := bindArgs(1, 1)
		if err != nil {
			return nil, err
		}
		if err := b.fillOrder(w.at, xs[0], f.Order, argOrder, args[0], c); err != nil { // bind_window_fill.go
			return nil, err
		}
		f.Args, f.Type, f.ArgOrder = xs, xs[0].Type(), argOrder
	case "first_value", "last_value", "first", "last", "arbitrary":
		// first(x) and last(x) are the aggregates of a frame's first and
		// last row, NULL or not: first_value and last_value.
		xs, err := bindArgs(1, 1)
		if err != nil {
			return nil, err
		}
		f.Args, f.Type = xs, xs[0].Type()
		f.Name = map[string]string{"first": "first_value", "arbitrary": "first_value", "last": "last_value"}[name]
		if f.Name == "" {
			f.Name = name
		}
	case "var_samp", "variance", "var_pop", "stddev", "stddev_samp", "stddev_pop":
		// Statistical aggregates over a frame (executor/window_acc.go).
		// (bool_and, median, … OVER do not get past the MySQL grammar.)
		xs, err := bindArgs(1, 1)
		if err != nil {
			return nil, err
		}
		if t := xs[0].Type(); !t.IsNumeric() && t.ID != columnar.Null {
			return nil, b.typeErr(args[0], c, "%s(%s) is not supported", name, t)
		}
		f.Name = map[string]string{"variance": "var_samp", "stddev": "stddev_samp"}[name]
		if f.Name == "" {
			f.Name = name
		}
		f.Args, f.Type = xs, columnar.TFloat64
	case "bool_and", "bool_or", "median", "quantile_cont", "string_agg", "group_concat", "listagg", "approx_count_distinct",
		"quantile_disc", "quantile", "mode", "list", "array_agg":
		if err := b.bindWindowAgg(&f, args, star, at, bindArgs, c); err == errViaGroupBy {
			return b.bindWindowAny(w.syntax(), f, args, star, bindW, c) // bind_window_any.go
		} else if err != nil {
			return nil, err
		}
	case "arg_max", "argmax", "max_by", "arg_min", "argmin", "min_by", "arg_max_null", "arg_min_null":
		if err := b.bindWindowArgMinMax(&f, bindArgs); err != nil {
			return nil, err
		}
	case "skewness", "kurtosis", "kurtosis_pop", "product", "sem", "fsum", "kahan_sum", "sumkahan", "favg", "entropy", "mad":
		if err := b.bindWindowStat(&f, args, bindArgs, c); err != nil { // bind_agg_stats.go
			return nil, err
		}
	case "covar_pop", "covar_samp", "corr", "regr_count", "regr_avgx", "regr_avgy", "regr_slope", "regr_intercept",
		"regr_r2", "regr_sxx", "regr_syy", "regr_sxy":
		if err := b.bindWindowPair(&f, args, bindArgs, c); err != nil { // bind_agg_pair.go
			return nil, err
		}
	default:
		if !windowAggs[name] {
			return nil, b.errAt(at, ErrUnknownFunction, fmt.Sprintf("unknown window function %q%s", name, didYouMean(name, windowNames())))
		}
		if name == "count" && star {
			f.Name, f.Type = "count_star", columnar.TInt64
			break
		}
		xs, err := bindArgs(1, 1)
		if err != nil {
			return nil, err
		}
		if nestedWindowMinMax(&f, aggFuncs[name], xs[0]) { // bind_window_aggs.go
			break
		}
		if aggFuncs[name] == planner.AggAvg && xs[0].Type().ID == columnar.Time {
			f.Args, f.Type = []planner.Expr{timeMicros(xs[0])}, columnar.TFloat64 // bind_agg_time.go
			break
		}
		if aggFuncs[name] == planner.AggAvg && xs[0].Type().ID == columnar.Interval && !f.Distinct && w.nulls == nil {
			return b.windowIntervalAvg(f, xs[0]), nil // bind_window_aggs.go
		}
		if fn := aggFuncs[name]; fn == planner.AggAvg && exactAvg(xs[0].Type()) && !f.Distinct && w.nulls == nil {
			return b.windowExactAvg(f, xs[0]), nil // bind_window_aggs.go
		}
		if fn := aggFuncs[name]; windowLimbSum(fn, xs[0].Type()) && !f.Distinct && w.nulls == nil {
			return b.wideWindowSum(f, xs[0]), nil // bind_window_aggs.go
		}
		t, arg, err := b.aggType(aggFuncs[name], name, xs[0], args, c)
		if err != nil {
			return nil, err
		}
		f.Args, f.Type = []planner.Expr{arg}, t
		if name == "mean" {
			f.Name = "avg"
		}
		if aggFuncs[name] == planner.AggSum && w.nulls == nil {
			col := b.pushWindowFunc(f, name)
			return sumWiden(planner.AggSum, t, &planner.ColRef{Col: col}), nil
		}
	}
	if orderedWindowFuncs[f.Name] {
		f.ArgOrder = argOrder
	}
	if nm := w.nulls; nm != nil {
		switch f.Name {
		case "lag", "lead", "first_value", "last_value", "nth_value":
			f.IgnoreNulls = nm.ignore
		default:
			return nil, b.errAt(nm.at, ErrSyntax, fmt.Sprintf("IGNORE NULLS and RESPECT NULLS are only valid for lag, lead, first_value, last_value and nth_value, not %s", name))
		}
	}
	col := b.pushWindowFunc(f, name)
	if argNullAggs[name] {
		return unboxArg(&planner.ColRef{Col: col}), nil // bind_agg_argminmax.go
	}
	if toTime := timeWindow(&f); toTime != nil {
		return toTime(&planner.ColRef{Col: col}), nil
	}
	if k, ok := boxedList(f); ok {
		return &planner.Call{Fn: "list_unbox", Args: []planner.Expr{&planner.ColRef{Col: col}}, T: k.T}, nil // bind_window_aggs.go
	}
	return statChecked(f.Name, &planner.ColRef{Col: col}), nil
}

// boxedList returns the filter_box argument of a window list with FILTER
// (bind_window_aggs.go).
func boxedList(f planner.WindowFunc) (*planner.Call, bool) {
	if f.Name != "list" || len(f.Args) != 1 {
		return nil, false
	}
	k, ok := f.Args[0].(*planner.Call)
	return k, ok && k.Fn == "filter_box"
}

func constInt(x planner.Expr) (int64, bool) {
	k, ok := planner.FoldExpr(x).(*planner.Const)
	if !ok || k.Val.Null || !k.Val.Type.IsInteger() {
		return 0, false
	}
	return k.Val.I, true
}
