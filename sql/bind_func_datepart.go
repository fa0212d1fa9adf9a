package sql

import (
	"fmt"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// date_part, EXTRACT and date_trunc: the part is a constant name, checked
// and made canonical here, so the executor's kernel is chosen for it once.

// dateParts maps accepted part names to the canonical names the executor
// implements.
var dateParts = map[string]string{
	"year": "year", "years": "year", "y": "year", "yr": "year", "yrs": "year",
	"month": "month", "months": "month", "mon": "month",
	"day": "day", "days": "day", "d": "day", "dayofmonth": "day",
	"hour": "hour", "hours": "hour", "h": "hour",
	"minute": "minute", "minutes": "minute", "min": "minute", "m": "minute",
	"second": "second", "seconds": "second", "s": "second", "sec": "second",
	"millisecond": "millisecond", "milliseconds": "millisecond", "ms": "millisecond",
	"microsecond": "microsecond", "microseconds": "microsecond", "us": "microsecond",
	"epoch": "epoch", "dow": "dow", "dayofweek": "dow", "weekday": "dow", "isodow": "isodow",
	"doy": "doy", "dayofyear": "doy", "week": "week", "weeks": "week", "w": "week", "weekofyear": "week",
	"quarter": "quarter", "quarters": "quarter", "decade": "decade", "century": "century",
	"millennium": "millennium", "isoyear": "isoyear",
	"timezone": "timezone", "timezone_hour": "timezone_hour", "timezone_minute": "timezone_minute",
}

var truncParts = map[string]bool{
	"millennium": true, "century": true, "decade": true, "year": true, "quarter": true, "month": true,
	"week": true, "day": true, "hour": true, "minute": true, "second": true, "millisecond": true, "microsecond": true,
}

// bindDatePartCall binds date_part(part, ts): the part is a constant,
// validated here.
func bindDatePartCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(args) != 2 {
		return nil, true, b.arity(at, name, "2")
	}
	part, ok := args[0].(*callexpr.SQLVal)
	if !ok || part.Type != callexpr.StrVal {
		return nil, true, b.typeErr(args[0], c, "%s expects a constant part name", name)
	}
	x, err := b.bindDatePart(strings.ToLower(string(part.Val)), args[1], at, c)
	return x, true, err
}

// bindDateTruncCall binds date_trunc(part, ts).
func bindDateTruncCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(args) != 2 {
		return nil, true, b.arity(at, name, "2")
	}
	x, err := b.bindDateTrunc(args, at, c)
	return x, true, err
}

// bindDatePart binds date_part / EXTRACT.
func (b *binder) bindDatePart(part string, arg callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	p, ok := dateParts[part]
	if !ok {
		names := make([]string, 0, len(dateParts))
		for k := range dateParts {
			names = append(names, k)
		}
		sort.Strings(names) // a deterministic hint among equally close names
		return nil, b.errAt(b.partTok(part, at, c), ErrType, fmt.Sprintf("unknown date part %q%s", part, didYouMean(part, names)))
	}
	x, err := b.bindExpr(arg, c)
	if err != nil {
		return nil, err
	}
	if b.flexible(x, columnar.TTimestamp, false) {
		if x, err = b.coerce(x, columnar.TTimestamp, arg, c); err != nil {
			return nil, err
		}
	}
	t := x.Type()
	if t.ID == columnar.Time {
		if err := b.checkTimePart(p, arg, c); err != nil {
			return nil, err
		}
	} else if !t.IsTemporal() && !t.IsTimestampUnit() && t.ID != columnar.Interval && t.ID != columnar.Null && t.ID != columnar.TimestampTZ {
		return nil, b.typeErr(arg, c, "date_part expects DATE, TIMESTAMP, TIME or INTERVAL, got %s", t)
	}
	if strings.HasPrefix(p, "timezone") {
		return b.zonePart(p, x, arg, c) // bind_timezone.go
	}
	if p == "epoch" {
		x = utcPayload(x) // the instant's, not the local time's
	} else {
		x = b.localTime(x)
	}
	rt := columnar.TInt64
	if p == "epoch" {
		rt = columnar.TFloat64
	}
	return &planner.Call{Fn: "date_part", Args: []planner.Expr{&planner.Const{Val: columnar.StringValue(p)}, x}, T: rt}, nil
}

func (b *binder) partTok(part string, at int, c ectx) int {
	i := b.q.findToken(c.sp, func(t token) bool {
		return (t.kind == tkString || t.kind == tkIdent) && strings.EqualFold(t.val, part)
	})
	if i == c.sp.lo {
		return at
	}
	return i
}

func (b *binder) bindDateTrunc(args []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	lit, ok := args[0].(*callexpr.SQLVal)
	if !ok || lit.Type != callexpr.StrVal {
		return nil, b.typeErr(args[0], c, "date_trunc expects a constant part name")
	}
	part := strings.ToLower(string(lit.Val))
	p := dateParts[part]
	if !truncParts[p] {
		return nil, b.errAt(b.partTok(part, at, c), ErrType, fmt.Sprintf("unknown date_trunc part %q", part))
	}
	x, err := b.bindExpr(args[1], c)
	if err != nil {
		return nil, err
	}
	if b.flexible(x, columnar.TTimestamp, false) {
		if x, err = b.coerce(x, columnar.TTimestamp, args[1], c); err != nil {
			return nil, err
		}
	}
	x = asTimestamp(x) // DuckDB: date_trunc of a TIMESTAMP_NS is a TIMESTAMP
	t := x.Type()
	switch t.ID {
	case columnar.Date:
	case columnar.Timestamp:
	case columnar.TimestampTZ:
		// Local midnight (or hour…) of the session's zone, as an instant.
		lt := b.localTime(x)
		return b.instantOf(&planner.Call{Fn: "date_trunc", Args: []planner.Expr{&planner.Const{Val: columnar.StringValue(p)}, lt}, T: columnar.TTimestamp}), nil
	case columnar.Null:
		t = columnar.TTimestamp
		if x, err = b.coerce(x, t, args[1], c); err != nil {
			return nil, err
		}
	default:
		return nil, b.typeErr(args[1], c, "date_trunc expects DATE or TIMESTAMP, got %s", t)
	}
	return &planner.Call{Fn: "date_trunc", Args: []planner.Expr{&planner.Const{Val: columnar.StringValue(p)}, x}, T: t}, nil
}

// timeParts are the date_part parts defined on a TIME (DuckDB has no day,
// month or year of a time of day).
var timeParts = map[string]bool{
	"hour": true, "minute": true, "second": true, "millisecond": true, "microsecond": true, "epoch": true,
}

// checkTimePart refuses a date_part part a TIME does not have.
func (b *binder) checkTimePart(part string, arg callexpr.Expr, c ectx) error {
	if timeParts[part] {
		return nil
	}
	return b.typeErr(arg, c, "date_part %q is not defined for TIME (it has hour, minute, second, millisecond, microsecond and epoch)", part)
}
