package sql

import (
	"time"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// Default time_bucket origins, as DuckDB: a Monday for buckets of days
// and shorter, the start of a year for buckets of months.
var (
	bucketOrigin      = time.Date(2000, 1, 3, 0, 0, 0, 0, time.UTC).UnixMicro()
	bucketMonthOrigin = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
)

// bindTimeFunc binds age, make_timestamp, nanosecond and time_bucket; ok
// is false for other names.
func (b *binder) bindTimeFunc(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	ts := func(i int) (planner.Expr, error) {
		t := xs[i].Type()
		if t.ID == columnar.TimestampTZ {
			if name == "time_bucket" {
				return utcPayload(xs[i]), nil // DuckDB buckets the instant
			}
			return b.localTime(xs[i]), nil
		}
		if !t.IsTemporal() && !t.IsTimestampUnit() && t.ID != columnar.Null && !b.flexible(xs[i], columnar.TTimestamp, false) {
			return nil, b.typeErr(srcs[i], c, "%s expects DATE or TIMESTAMP, got %s", name, t)
		}
		return b.coerce(xs[i], columnar.TTimestamp, srcs[i], c)
	}
	switch name {
	case "age":
		if len(xs) != 1 && len(xs) != 2 {
			return nil, true, b.arity(at, name, "1 or 2")
		}
		args := make([]planner.Expr, len(xs))
		for i := range xs {
			x, err := ts(i)
			if err != nil {
				return nil, true, err
			}
			args[i] = x
		}
		if len(args) == 1 {
			// age(ts) is from today at midnight, the query's one instant.
			if *b.now == 0 {
				*b.now = time.Now().UTC().UnixMicro()
			}
			today := *b.now - *b.now%columnar.MicrosPerDay
			args = []planner.Expr{&planner.Const{Val: columnar.IntValue(columnar.TTimestamp, today)}, args[0]}
		}
		return &planner.Call{Fn: "age", Args: args, T: columnar.TInterval}, true, nil
	case "nanosecond":
		// Nanoseconds of the minute: microsecond(x) × 1000 (timestamps
		// hold microseconds).
		if len(xs) != 1 {
			return nil, true, b.arity(at, name, "1")
		}
		x, err := ts(0)
		if err != nil {
			return nil, true, err
		}
		k := func(n int64) planner.Expr { return &planner.Const{Val: columnar.IntValue(columnar.TInt64, n)} }
		us := &planner.Call{Fn: "date_part", Args: []planner.Expr{&planner.Const{Val: columnar.StringValue("microsecond")}, x}, T: columnar.TInt64}
		var ns planner.Expr = &planner.Call{Fn: "*", Args: []planner.Expr{us, k(1000)}, T: columnar.TInt64}
		if xs[0].Type().ID == columnar.TimestampNS {
			// Its own nanoseconds: epoch_ns modulo a minute, floored.
			e := &planner.Call{Fn: "epoch_ns", Args: []planner.Expr{xs[0]}, T: columnar.TInt64}
			mod := func(x planner.Expr) planner.Expr {
				return &planner.Call{Fn: "%", Args: []planner.Expr{x, k(60e9)}, T: columnar.TInt64}
			}
			ns = mod(&planner.Call{Fn: "+", Args: []planner.Expr{mod(e), k(60e9)}, T: columnar.TInt64})
		}
		return ns, true, nil
	case "time_bucket":
		x, err := b.bindTimeBucket(xs, srcs, at, c, ts)
		return x, true, err
	}
	return nil, false, nil
}

// bindTimeBucket binds time_bucket(width, ts[, origin | offset]) as
// time_bucket(width, ts, origin), the origin DuckDB's default for a bucket
// of months (2000-01-01) or of days and times (2000-01-03); with an
// INTERVAL offset, time_bucket(width, ts - offset, origin) + offset. A
// DATE ts gives a DATE.
func (b *binder) bindTimeBucket(xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx, ts func(int) (planner.Expr, error)) (planner.Expr, error) {
	if len(xs) != 2 && len(xs) != 3 {
		return nil, b.arity(at, "time_bucket", "2 or 3")
	}
	width := xs[0]
	if t := width.Type(); t.ID != columnar.Interval {
		return nil, b.typeErr(srcs[0], c, "time_bucket expects an INTERVAL bucket width, got %s", t)
	}
	monthly := false
	if k, ok := planner.FoldExpr(width).(*planner.Const); ok && !k.Val.Null {
		monthly = k.Val.Interval().Months != 0
	}
	var subject planner.Expr
	var err error
	rt := columnar.TTimestamp
	if xs[1].Type().ID == columnar.Date {
		// A DATE is bucketed as a DATE (executor fnTimeBucket), past
		// TIMESTAMP's range too, so it is not made a TIMESTAMP first.
		subject, rt = xs[1], columnar.TDate
	} else if subject, err = ts(1); err != nil {
		return nil, err
	}
	o := bucketOrigin
	if monthly {
		o = bucketMonthOrigin
	}
	var origin planner.Expr = &planner.Const{Val: columnar.IntValue(columnar.TTimestamp, o)}
	var offset planner.Expr
	if len(xs) == 3 {
		if xs[2].Type().ID == columnar.Interval {
			// As DuckDB: the bucket of ts - offset, moved by offset (in
			// calendar arithmetic).
			offset, rt = xs[2], columnar.TTimestamp
			if subject, err = ts(1); err != nil {
				return nil, err
			}
			subject = &planner.Call{Fn: "-", Args: []planner.Expr{subject, offset}, T: columnar.TTimestamp}
		} else if origin, err = ts(2); err != nil {
			return nil, err
		}
	}
	var out planner.Expr = &planner.Call{Fn: "time_bucket", Args: []planner.Expr{width, subject, origin}, T: rt}
	if offset != nil {
		out = &planner.Call{Fn: "+", Args: []planner.Expr{out, offset}, T: columnar.TTimestamp}
	}
	switch xs[1].Type().ID {
	case columnar.Date:
		if rt.ID != columnar.Date {
			out = &planner.Cast{Arg: out, To: columnar.TDate}
		}
	case columnar.TimestampTZ:
		out = &planner.Cast{Arg: out, To: columnar.TTimestampTZ} // the same payload: UTC
	}
	return out, nil
}
