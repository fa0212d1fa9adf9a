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
	"millennium": "millennium", "isoyear": "isoyear", "epoch": "epoch",
}

// dateFuncs are the date functions with fixed signatures added here (the
// executor's call_date_more.go).
var dateFuncs = map[string]moreSig{
	"now":                   {"now", nil, 0, columnar.TTimestampTZ},
	"current_timestamp":     {"now", []argKind{aInt}, 1, columnar.TTimestampTZ}, // CURRENT_TIMESTAMP(precision)
	"get_current_timestamp": {"now", nil, 0, columnar.TTimestampTZ},
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
	if _, ok := dateFuncs[name]; !ok {
		return nil, false, nil
	}
	if dateFuncs[name].fn == "now" {
		// One instant for the whole query, as DuckDB's transaction time.
		if len(args) > len(dateFuncs[name].args) {
			return nil, true, b.arity(at, name, "0")
		}
		if dateFuncs[name].ret.ID == columnar.Time {
			return b.nowTime(), true, nil
		}
		if *b.now == 0 {
			*b.now = time.Now().UTC().UnixMicro()
		}
		if dateFuncs[name].ret.ID == columnar.Timestamp {
			// LOCALTIMESTAMP: the wall-clock time in the session's zone.
			return b.localTime(&planner.Const{Val: columnar.IntValue(columnar.TTimestampTZ, *b.now)}), true, nil
		}
		return &planner.Const{Val: columnar.IntValue(columnar.TTimestampTZ, *b.now)}, true, nil
	}
	xs := make([]planner.Expr, len(args))
	for i, a := range args {
		x, err := b.bindExpr(a, c)
		if err != nil {
			return nil, true, err
		}
		xs[i] = x
	}
	x, _, err := b.scalarSig(name, dateFuncs[name], xs, args, at, c)
	return x, true, err
}
