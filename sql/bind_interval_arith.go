package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// intervalArith binds INTERVAL ± INTERVAL, INTERVAL * number, number *
// INTERVAL and INTERVAL / number (DuckDB's interval arithmetic); ok is
// false for other operand types.
func (b *binder) intervalArith(fn string, l, r planner.Expr, ls, rs callexpr.Expr, c ectx) (planner.Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	switch {
	case lt.ID == columnar.Interval && rt.ID == columnar.Interval && (fn == "+" || fn == "-"):
		return &planner.Call{Fn: fn, Args: []planner.Expr{l, r}, T: columnar.TInterval}, true, nil
	case lt.IsNumeric() && rt.ID == columnar.Interval && fn == "*":
		l, r, ls, rs = r, l, rs, ls
		fallthrough
	case lt.ID == columnar.Interval && (fn == "*" || fn == "/"):
		if t := r.Type(); !t.IsNumeric() && t.ID != columnar.Null {
			return nil, false, nil
		}
		to := columnar.TFloat64
		if r.Type().IsInteger() && r.Type().ID != columnar.Uint64 && fn == "*" {
			to = columnar.TInt64
		}
		k, err := b.coerce(r, to, rs, c)
		if err != nil {
			return nil, true, err
		}
		name := "interval_mul"
		if fn == "/" {
			name = "interval_div"
		}
		return &planner.Call{Fn: name, Args: []planner.Expr{l, k}, T: columnar.TInterval}, true, nil
	}
	return nil, false, nil
}
