package sql

import (
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// histogram(x) is a MAP(x, UBIGINT) of each distinct non-NULL value to its
// count (planner.AggHistogram). histogram(x, bins) and histogram_exact(x,
// bins) count histogram_bin(x, bins, exact) instead, bins a constant list
// cast to x's type (a DECIMAL x is binned as DOUBLE, as DuckDB does),
// sorted and without duplicates, and histogram_fill adds the empty bins
// (executor call_histogram_bins.go).
func (b *binder) bindHistogram(name string, e *callexpr.FuncExpr, args []callexpr.Expr, star bool, at int, c ectx) (planner.Expr, error) {
	ar := aggArity{lo: 1, hi: 2, bind: 1}
	if name == "histogram_exact" {
		ar.lo = 2
	}
	xs, ac, err := b.aggArgs(name, e, args, star, at, c, ar) // bind_agg_args.go
	if err != nil {
		return nil, err
	}
	x := xs[0]
	if x.Type().ID == columnar.Null {
		x = &planner.Const{Val: columnar.NullValue(columnar.TInt32)}
	}
	var bins *planner.Const
	if len(args) == 2 {
		if x.Type().IsDecimal() {
			x = &planner.Cast{Arg: x, To: columnar.TFloat64}
		}
		if bins, err = b.histogramBins(x.Type(), args[1], ac); err != nil {
			return nil, err
		}
		exact := &planner.Const{Val: columnar.BoolValue(name == "histogram_exact")}
		x = &planner.Call{Fn: "histogram_bin", Args: []planner.Expr{x, bins, exact}, T: x.Type()}
	}
	mt := columnar.MapOf(x.Type(), columnar.TUint64)
	ref := b.addAgg(planner.AggCall{Func: planner.AggHistogram, Arg: x, Distinct: e.Distinct, Type: mt})
	if bins != nil {
		return &planner.Call{Fn: "histogram_fill", Args: []planner.Expr{ref, bins}, T: mt}, nil
	}
	return ref, nil
}

// histogramBins binds the bin boundaries: a constant list, each element
// cast to t, sorted, duplicates dropped.
func (b *binder) histogramBins(t columnar.Type, src callexpr.Expr, c ectx) (*planner.Const, error) {
	if _, ok := executor.HistogramOther(t); !ok {
		return nil, b.typeErr(src, c, "histogram bins of %s are not supported", t)
	}
	y, err := b.bindExpr(src, c)
	if err != nil {
		return nil, err
	}
	k, ok := planner.FoldExpr(y).(*planner.Const)
	switch {
	case !ok || k.Val.Type.ID != columnar.List && k.Val.Type.ID != columnar.Null:
		return nil, b.typeErr(src, c, "histogram expects a constant list of bin boundaries")
	case k.Val.Null:
		return nil, b.typeErr(src, c, "Histogram bin list cannot be NULL")
	}
	elems := make([]columnar.Value, 0, len(k.Val.Elems))
	for _, v := range k.Val.Elems {
		if v.Null {
			return nil, b.typeErr(src, c, "Histogram bin entry cannot be NULL")
		}
		cv, ok := planner.FoldExpr(&planner.Cast{Arg: &planner.Const{Val: v}, To: t}).(*planner.Const)
		if !ok || cv.Val.Null {
			return nil, b.typeErr(src, c, "histogram bin %s is not a %s", v, t)
		}
		elems = append(elems, cv.Val)
	}
	slices.SortFunc(elems, columnar.Compare)
	elems = slices.CompactFunc(elems, func(p, q columnar.Value) bool { return columnar.Compare(p, q) == 0 })
	return &planner.Const{Val: columnar.Value{Type: columnar.ListOf(t), Elems: elems}}, nil
}
