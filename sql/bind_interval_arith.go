package sql

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// intervalArith binds INTERVAL ± INTERVAL, INTERVAL * number, number *
// INTERVAL and INTERVAL / number (DuckDB's interval arithmetic); ok is
// false for other operand types. Constant operands are combined here, so
// that the calendar months of literals add up (INTERVAL 1 MONTH +
// INTERVAL 1 DAY still adds one calendar month to a TIMESTAMP).
func (b *binder) intervalArith(fn string, l, r planner.Expr, ls, rs sqlparser.Expr, c ectx) (planner.Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	switch {
	case lt.ID == columnar.Interval && rt.ID == columnar.Interval && (fn == "+" || fn == "-"):
		if x, ok := b.foldIntervals(fn, l, r); ok {
			return x, true, nil
		}
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
		if x, ok := b.foldIntervalScale(fn, l, k); ok {
			return x, true, nil
		}
		name := "interval_mul"
		if fn == "/" {
			name = "interval_div"
		}
		return &planner.Call{Fn: name, Args: []planner.Expr{l, k}, T: columnar.TInterval}, true, nil
	}
	return nil, false, nil
}

// foldIntervals adds or subtracts two constant intervals, and their
// calendar months.
func (b *binder) foldIntervals(fn string, l, r planner.Expr) (planner.Expr, bool) {
	lk, ok1 := l.(*planner.Const)
	rk, ok2 := r.(*planner.Const)
	if !ok1 || !ok2 || lk.Val.Null || rk.Val.Null {
		return nil, false
	}
	sign := int64(1)
	if fn == "-" {
		sign = -1
	}
	v := lk.Val.I + sign*rk.Val.I
	if (v > lk.Val.I) != (sign*rk.Val.I > 0) && rk.Val.I != 0 {
		return nil, false // overflow: the executor reports it
	}
	k := &planner.Const{Val: columnar.IntValue(columnar.TInterval, v)}
	if m := b.calMonths[lk] + sign*b.calMonths[rk]; m != 0 {
		b.calMonths[k] = m
	}
	return k, true
}

// foldIntervalScale multiplies a constant interval by a constant integer,
// calendar months included; other cases are left to the executor.
func (b *binder) foldIntervalScale(fn string, iv, k planner.Expr) (planner.Expr, bool) {
	ik, ok1 := iv.(*planner.Const)
	kk, ok2 := k.(*planner.Const)
	if fn != "*" || !ok1 || !ok2 || ik.Val.Null || kk.Val.Null || kk.Val.Type.ID != columnar.Int64 {
		return nil, false
	}
	n := kk.Val.I
	if n != 0 && (ik.Val.I*n/n != ik.Val.I || n == -1 && ik.Val.I == math.MinInt64) {
		return nil, false
	}
	out := &planner.Const{Val: columnar.IntValue(columnar.TInterval, ik.Val.I*n)}
	if m := b.calMonths[ik] * n; m != 0 {
		b.calMonths[out] = m
	}
	return out, true
}
