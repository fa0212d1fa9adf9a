package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// Averages of TIMEs and INTERVALs (below), which DuckDB keeps in their
// own type.
//
// DuckDB averages and interpolates TIMEs: avg(t), median(t) and
// quantile_cont(t, q) are TIMEs. Here they are computed over the
// microseconds (epoch_us(t), a BIGINT) and turned back into a TIME by the
// executor's time_avg and time_of_micros (call_time_of_day.go), which
// round as DuckDB does.

// timeMicros is x's microseconds since midnight when x is a TIME, else x.
// time_micros is epoch_us under a name no query can call, so that
// isTimeMicros recognises the binder's own conversions.
func timeMicros(x planner.Expr) planner.Expr {
	if x.Type().ID != columnar.Time {
		return x
	}
	return &planner.Call{Fn: "time_micros", Args: []planner.Expr{x}, T: columnar.TInt64}
}

// isTimeMicros reports whether x is a timeMicros conversion.
func isTimeMicros(x planner.Expr) bool {
	k, ok := x.(*planner.Call)
	return ok && k.Fn == "time_micros"
}

// timeWindow makes avg, median and quantile_cont OVER a window of TIMEs
// run over the microseconds (f's argument and type change) and returns
// how to turn the DOUBLE result back into a TIME, or nil when f is not
// such a call.
func timeWindow(f *planner.WindowFunc) func(planner.Expr) planner.Expr {
	if len(f.Args) == 0 || !isTimeMicros(f.Args[0]) {
		return nil
	}
	switch f.Name {
	case "median", "quantile_cont":
		return timeFromMicros
	case "avg":
		return func(x planner.Expr) planner.Expr {
			return &planner.Call{Fn: "time_of_avg", Args: []planner.Expr{x}, T: columnar.TTime}
		}
	}
	return nil
}

// timeFromMicros turns an interpolated DOUBLE of microseconds (median,
// quantile_cont) back into a TIME.
func timeFromMicros(x planner.Expr) planner.Expr {
	return &planner.Call{Fn: "time_of_micros", Args: []planner.Expr{x}, T: columnar.TTime}
}

// timeAvg is avg([DISTINCT] t) of a TIME: the exact BIGINT sum of the
// microseconds over the count, rounded by time_avg. (A sum past 2^63 µs,
// about 10^8 rows of late times, is an overflow error, as any BIGINT sum.)
func (b *binder) timeAvg(arg planner.Expr, distinct bool) planner.Expr {
	us := timeMicros(arg)
	sum := b.addAgg(planner.AggCall{Func: planner.AggSum, Arg: us, Distinct: distinct, Type: columnar.TInt64})
	n := b.addAgg(planner.AggCall{Func: planner.AggCount, Arg: us, Distinct: distinct, Type: columnar.TInt64})
	return &planner.Call{Fn: "time_avg", Args: []planner.Expr{sum, n}, T: columnar.TTime}
}

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
