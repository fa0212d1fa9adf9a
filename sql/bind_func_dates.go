package sql

import (
	"time"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// datePartFuncs are DuckDB's one-part shorthands: year(x) is
// date_part('year', x), and so on.
var datePartFuncs = map[string]string{
	"year": "year", "month": "month", "day": "day", "dayofmonth": "day", "hour": "hour",
	"minute": "minute", "second": "second", "millisecond": "millisecond", "microsecond": "microsecond",
	"quarter": "quarter", "week": "week", "weekofyear": "week", "dayofweek": "dow", "weekday": "dow",
	"isodow": "isodow", "dayofyear": "doy", "decade": "decade", "century": "century",
	"millennium": "millennium", "isoyear": "isoyear", "epoch": "epoch", "era": "era",
	"timezone_hour": "timezone_hour", "timezone_minute": "timezone_minute",
}

// dateFuncs are now() and its other names: the query's one instant, as a
// TIMESTAMP WITH TIME ZONE, the session's local TIMESTAMP
// (LOCALTIMESTAMP) or TIME. current_time and get_current_time are TIME
// WITH TIME ZONE in DuckDB; without that type they are the UTC time of
// day of the instant (now()::TIME), as localtime is. CURRENT_TIMESTAMP,
// LOCALTIMESTAMP, CURRENT_TIME and LOCALTIME take an optional precision.
var dateFuncs = map[string]nowFunc{
	"now":                    {columnar.TTimestampTZ, 0},
	"current_timestamp":      {columnar.TTimestampTZ, 1},
	"get_current_timestamp":  {columnar.TTimestampTZ, 0},
	"transaction_timestamp":  {columnar.TTimestampTZ, 0},
	"localtimestamp":         {columnar.TTimestamp, 1},
	"current_localtimestamp": {columnar.TTimestamp, 0},
	"current_time":           {columnar.TTime, 1},
	"get_current_time":       {columnar.TTime, 0},
	"localtime":              {columnar.TTime, 1},
}

// nowFunc is a name of now(): its result type and how many arguments (a
// precision) it may take.
type nowFunc struct {
	ret     columnar.Type
	maxArgs int
}

// bindDateFunc binds the functions above and epoch_ms; ok is false for
// other names.
func (b *binder) bindDateFunc(name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if part, ok := datePartFuncs[name]; ok {
		if len(args) != 1 {
			return nil, true, b.arity(at, name, "1")
		}
		x, err := b.bindDatePart(part, args[0], at, c)
		return x, true, err
	}
	if name == "epoch_ms" {
		// epoch_ms(BIGINT) is a TIMESTAMP; epoch_ms(DATE|TIMESTAMP) milliseconds.
		if len(args) != 1 {
			return nil, true, b.arity(at, name, "1")
		}
		x, err := b.bindExpr(args[0], c)
		if err != nil {
			return nil, true, err
		}
		if t := x.Type(); t.IsInteger() {
			y, err := b.coerce(x, columnar.TInt64, args[0], c)
			return &planner.Call{Fn: "epoch_ms", Args: []planner.Expr{y}, T: columnar.TTimestamp}, true, err
		}
		if b.flexible(x, columnar.TTimestamp, false) {
			if x, err = b.coerce(x, columnar.TTimestamp, args[0], c); err != nil {
				return nil, true, err
			}
		}
		x = utcPayload(x) // of an instant: its own milliseconds; TIMESTAMP_S/MS/NS as TIMESTAMP
		if t := x.Type(); !t.IsTemporal() && t.ID != columnar.Null && t.ID != columnar.Time {
			return nil, true, b.typeErr(args[0], c, "epoch_ms expects BIGINT, DATE, TIMESTAMP or TIME, got %s", t)
		}
		return &planner.Call{Fn: "epoch_ms", Args: []planner.Expr{x}, T: columnar.TInt64}, true, nil
	}
	now, ok := dateFuncs[name]
	if !ok {
		return nil, false, nil
	}
	// One instant for the whole query, as DuckDB's transaction time.
	if len(args) > now.maxArgs {
		return nil, true, b.arity(at, name, "0")
	}
	if now.ret.ID == columnar.Time {
		return b.nowTime(), true, nil
	}
	if *b.now == 0 {
		*b.now = time.Now().UTC().UnixMicro()
	}
	if now.ret.ID == columnar.Timestamp {
		// LOCALTIMESTAMP: the wall-clock time in the session's zone.
		return b.localTime(&planner.Const{Val: columnar.IntValue(columnar.TTimestampTZ, *b.now)}), true, nil
	}
	return &planner.Const{Val: columnar.IntValue(columnar.TTimestampTZ, *b.now)}, true, nil
}

// bindIntervalUnit binds to_years(n) … to_millennia(n) as INTERVALs of n
// units.
func (b *binder) bindIntervalUnit(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	unit, ok := intervalUnitFuncs[name]
	if !ok {
		return nil, false, nil
	}
	if len(xs) != 1 {
		return nil, true, b.arity(at, name, "1")
	}
	x, err := b.intervalOf(xs[0], srcs[0], unit, name, at, c)
	return x, true, err
}

// bindDateAdd binds date_add(ts, interval) as ts + interval.
func (b *binder) bindDateAdd(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) != 2 || xs[1].Type().ID != columnar.Interval {
		return nil, true, b.typeErr(srcs[0], c, "date_add expects a DATE or TIMESTAMP and an INTERVAL")
	}
	ts, err := b.coerce(xs[0], columnar.TTimestamp, srcs[0], c)
	if err != nil {
		return nil, true, err
	}
	return &planner.Call{Fn: "+", Args: []planner.Expr{ts, xs[1]}, T: columnar.TTimestamp}, true, nil
}

// bindStrptimeList binds strptime(text, formats) and try_strptime over a
// list of formats, tried in order (executor/call_time.go); ok is false
// for a single format, which the registry's rules type.
func (b *binder) bindStrptimeList(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) != 2 || xs[1].Type().ID != columnar.List {
		return nil, false, nil
	}
	if e := xs[1].Type().Elem(); e.ID != columnar.Varchar {
		return nil, true, b.typeErr(srcs[1], c, "%s expects a format or a list of formats, got %s", name, xs[1].Type())
	}
	s, err := b.coerce(xs[0], columnar.TVarchar, srcs[0], c)
	if err != nil {
		return nil, true, err
	}
	// The formats are a constant, checked when the call is built.
	return &planner.Call{Fn: name, Args: []planner.Expr{s, planner.FoldExpr(xs[1])}, T: columnar.TTimestamp}, true, nil
}

// bindStrftime binds strftime(ts, format); strftime(format, ts) is
// accepted too, as in DuckDB, and an instant is formatted in the session's
// zone.
func (b *binder) bindStrftime(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) == 2 && xs[1].Type().ID == columnar.TimestampTZ && xs[0].Type().ID != columnar.TimestampTZ {
		// strftime(format, instant) formats its UTC time, as DuckDB.
		xs, srcs = []planner.Expr{utcPayload(xs[1]), xs[0]}, []callexpr.Expr{srcs[1], srcs[0]}
	}
	if len(xs) == 2 && xs[1].Type().IsTemporal() && !xs[0].Type().IsTemporal() && xs[0].Type().ID != columnar.TimestampTZ {
		xs, srcs = []planner.Expr{xs[1], xs[0]}, []callexpr.Expr{srcs[1], srcs[0]}
	}
	if len(xs) == 2 && xs[0].Type().ID == columnar.TimestampTZ {
		// The local time in the session's zone; %z and %Z are the zone's.
		f, err := b.coerce(xs[1], columnar.TVarchar, srcs[1], c)
		if err != nil {
			return nil, true, err
		}
		return planner.FoldExpr(&planner.Call{Fn: "strftime_tz", Args: []planner.Expr{xs[0], f, b.zoneConst()}, T: columnar.TVarchar}), true, nil
	}
	x, err := b.callRules(name, xs, srcs, at, c)
	return x, true, err
}

// bindToTimestamp binds to_timestamp(text, format) as strptime with
// DuckDB's % codes; to_timestamp(seconds) is the registry's.
func (b *binder) bindToTimestamp(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) != 2 {
		return nil, false, nil
	}
	x, err := b.callRules("strptime", xs, srcs, at, c)
	return x, true, err
}

// bindTimezoneFunc binds timezone(ts), the zone part of ts as
// date_part('timezone', ts), and timezone(zone, ts) (bind_timezone.go).
func bindTimezoneFunc(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(args) == 1 {
		x, err := b.bindDatePart("timezone", args[0], at, c)
		return x, true, err
	}
	return bindTimezoneCall(b, name, args, at, c)
}
