package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// An INTERVAL value is microseconds, with a month folded in as 30 days
// (columnar.Interval): right for ordering and comparing intervals, wrong
// for calendar arithmetic, where 2024-01-31 + 1 month is 2024-02-29 and
// 2024-01-01 + 1 year is 2025-01-01. So the binder remembers how many
// months each INTERVAL literal holds (calMonths), and TIMESTAMP ± such a
// literal becomes add_months(ts, ±months) ± the rest.

// calendarMonths returns the whole months (months, quarters, years) that
// an interval text such as '1 year 2 months 3 days' counts; ok is false
// when a calendar part is fractional (that interval keeps 30-day months).
func calendarMonths(text string) (months int64, ok bool) {
	f := strings.Fields(strings.ToLower(text))
	for i := 0; i < len(f); i++ {
		num, unit := f[i], ""
		j := 0
		for j < len(num) && (isDigit(num[j]) || num[j] == '.' || num[j] == '-' || num[j] == '+') {
			j++
		}
		num, unit = num[:j], num[j:]
		if unit == "" && i+1 < len(f) {
			i++
			unit = f[i]
		}
		per := unitMonths(unit)
		if per == 0 {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimPrefix(num, "+"), 10, 64)
		if err != nil {
			return 0, false
		}
		months += n * per
	}
	return months, true
}

// unitMonths is the number of months in one unit, 0 for a fixed-length unit.
func unitMonths(unit string) int64 {
	switch strings.ToLower(unit) {
	case "month", "months", "mon", "mons":
		return 1
	case "quarter", "quarters":
		return 3
	case "year", "years", "y", "yr", "yrs":
		return 12
	}
	return 0
}

// calendarAdd binds ts fn iv (fn is + or -) for a TIMESTAMP ts and an
// INTERVAL iv, adding calendar months where iv is a literal that has them.
func (b *binder) calendarAdd(fn string, ts, iv planner.Expr) planner.Expr {
	if n, ok := intervalMonths(iv); ok {
		// INTERVAL (n) MONTH, to_months(n), …: n counts calendar months.
		if fn == "-" {
			n = &planner.Call{Fn: "-", Args: []planner.Expr{&planner.Const{Val: columnar.IntValue(columnar.TInt64, 0)}, n}, T: columnar.TInt64}
		}
		return &planner.Call{Fn: "add_months", Args: []planner.Expr{ts, n}, T: columnar.TTimestamp}
	}
	k, isConst := iv.(*planner.Const)
	months := int64(0)
	if isConst {
		months = b.calMonths[k]
	}
	if months == 0 {
		return &planner.Call{Fn: fn, Args: []planner.Expr{ts, iv}, T: columnar.TTimestamp}
	}
	rest := k.Val.I - months*30*columnar.MicrosPerDay
	if fn == "-" {
		months = -months
	}
	x := planner.Expr(&planner.Call{Fn: "add_months", Args: []planner.Expr{ts, &planner.Const{Val: columnar.IntValue(columnar.TInt64, months)}}, T: columnar.TTimestamp})
	if rest != 0 {
		x = &planner.Call{Fn: fn, Args: []planner.Expr{x, &planner.Const{Val: columnar.IntValue(columnar.TInterval, rest)}}, T: columnar.TTimestamp}
	}
	return x
}

// intervalUnitFuncs are DuckDB's to_<unit>(n) interval constructors.
var intervalUnitFuncs = map[string]string{
	"to_years": "year", "to_months": "month", "to_weeks": "week", "to_days": "day", "to_hours": "hour",
	"to_minutes": "minute", "to_seconds": "second", "to_milliseconds": "millisecond", "to_microseconds": "microsecond",
}

// intervalOf binds n units (INTERVAL (n) unit, to_days(n), …) for a
// non-constant n: interval_of(n, micros per unit, months per unit). A
// month unit with an integer n also remembers n·months as calendar months
// (intervalMonths), so that TIMESTAMP ± it adds calendar months.
func (b *binder) intervalOf(x planner.Expr, src sqlparser.Expr, unit, what string, at int, c ectx) (planner.Expr, error) {
	us, ok := intervalUnits[unit]
	if !ok {
		return nil, b.errAt(at, ErrType, fmt.Sprintf("unknown interval unit %q", unit))
	}
	t := x.Type()
	if !t.IsNumeric() && t.ID != columnar.Null {
		return nil, b.typeErr(src, c, "%s expects a number, got %s", what, t)
	}
	f, err := b.coerce(x, columnar.TFloat64, src, c)
	if err != nil {
		return nil, err
	}
	args := []planner.Expr{f, &planner.Const{Val: columnar.FloatValue(columnar.TFloat64, float64(us))}}
	if per := unitMonths(unit); per != 0 && (t.IsInteger() || t.ID == columnar.Null) {
		n, err := b.coerce(x, columnar.TInt64, src, c)
		if err != nil {
			return nil, err
		}
		if per != 1 {
			n = &planner.Call{Fn: "*", Args: []planner.Expr{n, &planner.Const{Val: columnar.IntValue(columnar.TInt64, per)}}, T: columnar.TInt64}
		}
		args = append(args, n)
	}
	return &planner.Call{Fn: "interval_of", Args: args, T: columnar.TInterval}, nil
}

// intervalMonths returns the calendar-month count of an interval_of call
// over a month unit.
func intervalMonths(iv planner.Expr) (planner.Expr, bool) {
	c, ok := iv.(*planner.Call)
	if !ok || c.Fn != "interval_of" || len(c.Args) != 3 {
		return nil, false
	}
	return c.Args[2], true
}
