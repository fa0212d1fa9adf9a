package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// fillOrder checks fill(x [ORDER BY k]) OVER (…) as DuckDB does: x and the
// one ordering it interpolates over (the argument's ORDER BY, else the
// window's) must be numbers or dates, timestamps and times
// (executor/window_fill.go).
func (b *binder) fillOrder(at int, x planner.Expr, order, argOrder []planner.SortKey, arg callexpr.Expr, c ectx) error {
	if !fillable(x.Type()) {
		return b.typeErr(arg, c, "FILL argument must support subtraction")
	}
	keys := argOrder
	if len(keys) == 0 {
		keys = order
	}
	if len(argOrder) > 1 || len(keys) != 1 {
		return b.errAt(at, ErrType, "FILL functions must have only one ORDER BY expression")
	}
	if !fillable(keys[0].Expr.Type()) {
		return b.errAt(at, ErrType, "FILL ordering must support subtraction")
	}
	return nil
}

// fillable reports whether fill interpolates values of type t: those held
// as one 64-bit number (not HUGEINT or DECIMAL above 18 digits).
func fillable(t columnar.Type) bool {
	switch t.ID {
	case columnar.Date, columnar.Time, columnar.Timestamp, columnar.TimestampTZ,
		columnar.TimestampS, columnar.TimestampMS, columnar.TimestampNS, columnar.Decimal:
		return true
	}
	return t.IsInteger() || t.IsFloat()
}
