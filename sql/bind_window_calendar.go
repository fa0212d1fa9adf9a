package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// A RANGE offset in months (ORDER BY d RANGE BETWEEN INTERVAL 1 MONTH
// PRECEDING AND CURRENT ROW) has no fixed length: a month back from March
// 31 is 31 days, from March 1 it is 29 (February 29, 2024), as + and -
// move a DATE or TIMESTAMP by calendar months. So such an offset becomes a
// per-row one: for each row, the length in days and microseconds from its
// key to the key moved by the interval, which the executor's RANGE search
// takes as it takes any INTERVAL offset computed per row. A TIME key keeps
// the folded length (a month as 30 days, more than any TIME range), as
// DuckDB does.

// calendarOffset reports whether a RANGE offset x over a key of type kt
// is measured per row on the calendar: an INTERVAL over a DATE or
// TIMESTAMP key that is computed per row (it may hold months on some
// rows) or a constant with months.
func calendarOffset(kt columnar.Type, x planner.Expr) bool {
	if kt.ID != columnar.Date && kt.ID != columnar.Timestamp || x.Type().ID != columnar.Interval {
		return false
	}
	k, ok := x.(*planner.Const)
	return !ok || !k.Val.Null && k.Val.Interval().Months != 0
}

// calendarDist is the per-row distance of the RANGE bound x in direction
// sign (-1 PRECEDING): the INTERVAL between the key and the key moved by
// x towards the bound. PRECEDING moves the key down in ascending order and
// up in descending order; the distance is positive either way (the
// executor applies the direction), and a negative x gives a negative one,
// which the executor refuses as DuckDB does.
func calendarDist(key planner.SortKey, x planner.Expr, sign int64) planner.Expr {
	k := key.Expr
	if k.Type().ID == columnar.Date {
		k = &planner.Cast{Arg: k, To: columnar.TTimestamp}
	}
	up := (sign > 0) != key.Desc
	op := "-"
	if up {
		op = "+"
	}
	moved := &planner.Call{Fn: op, Args: []planner.Expr{k, x}, T: columnar.TTimestamp}
	from, to := planner.Expr(k), planner.Expr(moved)
	if up {
		from, to = moved, k
	}
	return &planner.Call{Fn: "-", Args: []planner.Expr{from, to}, T: columnar.TInterval}
}
