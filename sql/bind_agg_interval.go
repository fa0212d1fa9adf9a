package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// avg(INTERVAL) is an INTERVAL, as in DuckDB: three BIGINT sums of the
// fields (interval_part, 0 months, 1 days, 2 microseconds) and the count,
// divided by interval_avg (executor call_interval_avg.go), over GROUP BY
// and window frames alike. avg(DISTINCT x) averages list(DISTINCT x)
// instead: the fields of distinct intervals are not the distinct fields.

// intervalAvgArgs are the field sums and the count of x, each added by add.
func intervalAvgArgs(x planner.Expr, add func(name string, arg planner.Expr) planner.Expr) []planner.Expr {
	args := make([]planner.Expr, 0, 4)
	for k := range 3 {
		part := &planner.Call{Fn: "interval_part", Args: []planner.Expr{x, &planner.Const{Val: columnar.IntValue(columnar.TInt64, int64(k))}}, T: columnar.TInt64}
		args = append(args, add("sum", part))
	}
	return append(args, add("count", x))
}

// intervalAvg binds avg([DISTINCT] x) of an INTERVAL under GROUP BY.
func (b *binder) intervalAvg(x planner.Expr, distinct bool) planner.Expr {
	if distinct {
		vals := b.addAgg(planner.AggCall{Func: planner.AggList, Arg: x, Distinct: true, Type: columnar.ListOf(x.Type())})
		return &planner.Call{Fn: "interval_list_avg", Args: []planner.Expr{vals}, T: columnar.TInterval}
	}
	args := intervalAvgArgs(x, func(name string, arg planner.Expr) planner.Expr {
		fn := planner.AggSum
		if name == "count" {
			fn = planner.AggCount
		}
		return b.addAgg(planner.AggCall{Func: fn, Arg: arg, Type: columnar.TInt64})
	})
	return &planner.Call{Fn: "interval_avg", Args: args, T: columnar.TInterval}
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
