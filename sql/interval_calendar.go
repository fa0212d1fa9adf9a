package sql

import (
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
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
