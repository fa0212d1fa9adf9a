package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// An INTERVAL keeps months, days and microseconds apart
// (columnar.IntervalParts), so TIMESTAMP ± INTERVAL moves by calendar
// months in the executor and the binder needs no bookkeeping of its own.

// intervalUnitFuncs are DuckDB's to_<unit>(n) interval constructors.
var intervalUnitFuncs = map[string]string{
	"to_years": "year", "to_months": "month", "to_weeks": "week", "to_days": "day", "to_hours": "hour",
	"to_minutes": "minute", "to_seconds": "second", "to_milliseconds": "millisecond", "to_microseconds": "microsecond",
	"to_quarters": "quarter", "to_decades": "decade", "to_centuries": "century", "to_millennia": "millennium",
}

// intervalOf binds n units (INTERVAL (n) unit, to_days(n), …) as
// interval_of(n, unit): n stays a BIGINT when it is an integer, else a
// DOUBLE, whose fraction seconds and milliseconds keep and the other units
// truncate (executor/call_interval.go).
func (b *binder) intervalOf(x planner.Expr, src callexpr.Expr, unit, what string, at int, c ectx) (planner.Expr, error) {
	if _, ok := columnar.IntervalOfUnits(0, unit); !ok {
		return nil, b.errAt(at, ErrType, fmt.Sprintf("unknown interval unit %q", unit))
	}
	t := x.Type()
	if !t.IsNumeric() && t.ID != columnar.Null {
		return nil, b.typeErr(src, c, "%s expects a number, got %s", what, t)
	}
	to := columnar.TFloat64
	if t.IsInteger() && t.ID != columnar.Uint64 || t.ID == columnar.Null {
		to = columnar.TInt64
	}
	n, err := b.coerce(x, to, src, c)
	if err != nil {
		return nil, err
	}
	unitName, _ := canonicalIntervalUnit(unit)
	args := []planner.Expr{n, &planner.Const{Val: columnar.StringValue(unitName)}}
	return &planner.Call{Fn: "interval_of", Args: args, T: columnar.TInterval}, nil
}

// canonicalIntervalUnit names a unit the way interval_of's sub-day units
// are spelled (microsecond … hour); other units keep their name.
func canonicalIntervalUnit(unit string) (string, bool) {
	for _, u := range []string{"microsecond", "millisecond", "second", "minute", "hour"} {
		a, _ := columnar.IntervalOfUnits(1, u)
		b, ok := columnar.IntervalOfUnits(1, unit)
		if ok && a == b {
			return u, true
		}
	}
	return unit, false
}
