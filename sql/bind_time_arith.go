package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// timeArith binds arithmetic with a TIME operand, which DuckDB defines
// only as TIME ± INTERVAL and INTERVAL + TIME (a TIME, wrapped into one
// day; the interval's days and months do not move a time of day) and
// DATE + TIME, TIME + DATE (the TIMESTAMP at that time). TIME - TIME,
// TIME + TIME and TIME with numbers are errors there, and here; so are
// TIME + NULL and TIME + 'text' (bindArith makes the untyped operand a
// TIME, where DuckDB cannot choose an overload for it).
func (b *binder) timeArith(fn string, l, r planner.Expr, ls, rs callexpr.Expr, c ectx) (planner.Expr, error) {
	lt, rt := l.Type(), r.Type()
	mk := func(t columnar.Type, args ...planner.Expr) planner.Expr {
		return &planner.Call{Fn: fn, Args: args, T: t}
	}
	switch {
	case lt.ID == columnar.Time && rt.ID == columnar.Interval && (fn == "+" || fn == "-"):
		return mk(columnar.TTime, l, r), nil
	case lt.ID == columnar.Interval && rt.ID == columnar.Time && fn == "+":
		return mk(columnar.TTime, l, r), nil
	case lt.ID == columnar.Date && rt.ID == columnar.Time && fn == "+",
		lt.ID == columnar.Time && rt.ID == columnar.Date && fn == "+":
		return mk(columnar.TTimestamp, l, r), nil
	}
	// An untyped NULL took the TIME's type in bindArith; name it as written.
	name := func(x planner.Expr, t columnar.Type) string {
		if k, ok := x.(*planner.Const); ok && k.Val.Null {
			return "NULL (CAST it to INTERVAL or DATE)"
		}
		return t.String()
	}
	return nil, b.typeErr(ls, c, "cannot apply %s to %s and %s", fn, name(l, lt), name(r, rt))
}
