package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// exactAvg reports whether AVG of t is an exact sum divided by a count
// (binder.exactAvg): integers but UHUGEINT, and DECIMALs of any width.
func exactAvg(t columnar.Type) bool {
	switch t.ID {
	case columnar.Decimal, columnar.Decimal128, columnar.Hugeint:
		return true
	}
	return t.IsInteger()
}

// exactAvg binds AVG of an integer or DECIMAL x as DuckDB computes it:
// the exact sum of x, as SUM(x) binds it, and count(x), divided once by
// avg_of_sum (executor kernel_avg.go). Dividing a DOUBLE sum by the count
// rounds twice and gave answers DuckDB does not; a sum(x) or count(x) the
// query also asks for is shared.
func (b *binder) exactAvg(arg planner.Expr, distinct bool) planner.Expr {
	defer b.ownAggs(arg)() // bind_agg_volatile.go
	t := arg.Type()
	var sum planner.Expr
	switch {
	case limbSum(planner.AggSum, t):
		sum = b.wideSum(arg, distinct)
	case exactSum(t):
		sum = b.addAgg(planner.AggCall{Func: planner.AggSum, Arg: arg, Distinct: distinct, Type: limbSumType(t)})
	default:
		sum = b.addAgg(planner.AggCall{Func: planner.AggSum, Arg: arg, Distinct: distinct, Type: columnar.TInt64})
	}
	n := b.addAgg(planner.AggCall{Func: planner.AggCount, Arg: arg, Distinct: distinct, Type: columnar.TInt64})
	narrow := &planner.Const{Val: columnar.BoolValue(columnar.AvgNarrow(t))}
	return &planner.Call{Fn: "avg_of_sum", Args: []planner.Expr{sum, n, narrow}, T: columnar.TFloat64}
}
