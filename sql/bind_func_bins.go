package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindEquiWidthBins types equi_width_bins(min, max, bin_count,
// nice_rounding) as DuckDB does: the bounds are computed over BIGINT
// (integers), DOUBLE (floats, DECIMAL) or TIMESTAMP (dates, timestamps)
// and listed in max's type, DECIMAL as DOUBLE (executor/call_bins.go).
func (b *binder) bindEquiWidthBins(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) != 4 {
		return nil, true, b.arity(at, name, "4")
	}
	lo, hi := xs[0].Type(), xs[1].Type()
	var calc, out columnar.Type
	switch {
	case isNullType(lo) && isNullType(hi):
		return &planner.Const{Val: columnar.NullValue(columnar.ListOf(columnar.TInt32))}, true, nil
	case (lo.IsInteger() || isNullType(lo)) && (hi.IsInteger() || isNullType(hi)):
		calc, out = columnar.TInt64, hi
		if isNullType(hi) {
			out = lo
		}
	case (lo.IsNumeric() || isNullType(lo)) && (hi.IsNumeric() || isNullType(hi)):
		calc, out = columnar.TFloat64, columnar.TFloat64
		if hi.IsFloat() {
			out = hi
		}
	case binTemporal(lo) && binTemporal(hi):
		calc, out = columnar.TTimestamp, hi
	default:
		t := hi // the argument that cannot bin, or max beside a min of another kind
		if !binTemporal(lo) && !lo.IsNumeric() {
			t = lo
		}
		return nil, true, b.errAt(at, ErrType, fmt.Sprintf("Unsupported type %q for equi_width_bins", t.String()))
	}
	args := make([]planner.Expr, 4)
	for i, to := range []columnar.Type{calc, calc, columnar.TInt64, columnar.TBool} {
		x, err := b.coerce(xs[i], to, srcs[i], c)
		if err != nil {
			return nil, true, err
		}
		args[i] = x
	}
	var call planner.Expr = &planner.Call{Fn: "equi_width_bins", Args: args, T: columnar.ListOf(calc)}
	if out.ID != calc.ID {
		call = &planner.Cast{Arg: call, To: columnar.ListOf(out)}
	}
	return call, true, nil
}

func isNullType(t columnar.Type) bool { return t.ID == columnar.Null }

// binTemporal reports whether t bins as a TIMESTAMP.
func binTemporal(t columnar.Type) bool {
	return t.ID == columnar.Date || t.ID == columnar.Timestamp || t.ID == columnar.TimestampTZ || t.IsTimestampUnit() || isNullType(t)
}
