package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

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
