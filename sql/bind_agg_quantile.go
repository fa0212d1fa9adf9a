package sql

import (
	"fmt"
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// contArg types the argument of median(x) and quantile_cont(x, q) as
// DuckDB does (quantile.cpp, CanInterpolate): it returns the expression
// to aggregate and the result type, interpolated in that type
// (executor/aggstate_quantile_typed.go):
//
//	integers, DOUBLE          DOUBLE (HUGEINT and UHUGEINT cast to it)
//	FLOAT, DECIMAL            the same type; INTERVAL too for median
//	DATE                      TIMESTAMP
//	TIMESTAMP[TZ], TIMETZ     the same type
//	TIMESTAMP_S/MS/NS         as TIMESTAMP (median casts the result back)
//	TIME                      microseconds as DOUBLE (bind_agg_time.go)
//
// disc is set for median of any other ordered type (VARCHAR, BLOB, UUID,
// …), which DuckDB answers as quantile_disc(x, 0.5); other types are an
// error.
func (b *binder) contArg(name string, x planner.Expr, src callexpr.Expr, c ectx) (arg planner.Expr, t columnar.Type, disc bool, err error) {
	t = x.Type()
	switch {
	case t.ID == columnar.Time:
		return timeMicros(x), columnar.TFloat64, false, nil
	case t.IsInteger() || t.ID == columnar.Float64 || t.ID == columnar.Null:
		return x, columnar.TFloat64, false, nil
	case t.ID == columnar.Hugeint || t.ID == columnar.Uhugeint:
		return &planner.Cast{Arg: x, To: columnar.TFloat64}, columnar.TFloat64, false, nil
	case t.ID == columnar.Float32 || t.IsDecimal() || t.ID == columnar.Timestamp || t.ID == columnar.TimestampTZ || t.ID == columnar.TimeTZ,
		t.ID == columnar.Interval && name == "median": // quantile_cont(INTERVAL) is not defined
		return x, t, false, nil
	case t.ID == columnar.Date:
		return x, columnar.TTimestamp, false, nil
	case t.IsTimestampUnit():
		return &planner.Cast{Arg: x, To: columnar.TTimestamp}, columnar.TTimestamp, false, nil
	case name == "median" && t.ID != columnar.Bool:
		return x, t, true, nil
	}
	return nil, t, false, b.typeErr(src, c, "%s(%s) is not supported", name, t)
}

// fractionList reports whether the fraction of quantile_cont,
// quantile_disc or approx_quantile (args[1]) is a constant LIST, and
// returns its elements.
func (b *binder) fractionList(fn planner.AggFunc, args []callexpr.Expr, c ectx) ([]columnar.Value, bool, error) {
	if (fn != planner.AggQuantileCont && fn != planner.AggQuantileDisc && fn != planner.AggApproxQuantile && fn != planner.AggReservoirQuantile) || len(args) < 2 {
		return nil, false, nil
	}
	ac := c
	ac.inAgg, ac.aggOK = true, false
	y, err := b.bindExpr(args[1], ac)
	if err != nil {
		return nil, false, err
	}
	k, ok := planner.FoldExpr(y).(*planner.Const)
	if !ok || k.Val.Type.ID != columnar.List {
		return nil, false, nil
	}
	if k.Val.Null {
		return nil, false, b.typeErr(args[1], c, "the list of fractions must not be NULL")
	}
	return k.Val.Elems, true, nil
}

// quantileList binds a quantile of a list of fractions as DuckDB answers
// it (an empty list of them too): the list of the quantile of each fraction (one holistic call each,
// bound by one; equal arguments share their values, executor's
// shareValues), NULL for a group without values.
func (b *binder) quantileList(fracs []columnar.Value, args []callexpr.Expr, at int, c ectx, one func(q *columnar.Value) (planner.Expr, error)) (planner.Expr, error) {
	if len(fracs) == 0 {
		// [] of fractions: [] of the quantile's type, NULL for a group
		// without values (DuckDB), told by the quantile of 0.5.
		half := columnar.FloatValue(columnar.TFloat64, 0.5)
		probe, err := one(&half)
		if err != nil {
			return nil, err
		}
		t := columnar.ListOf(probe.Type())
		isNull := &planner.Call{Fn: "is_null", Args: []planner.Expr{probe}, T: columnar.TBool}
		empty := &planner.Const{Val: columnar.Value{Type: t, Elems: []columnar.Value{}}}
		return &planner.Case{Whens: []planner.When{{Cond: isNull, Then: &planner.Const{Val: columnar.NullValue(t)}}}, Else: empty, T: t}, nil
	}
	xs := make([]planner.Expr, len(fracs))
	srcs := make([]callexpr.Expr, len(fracs))
	fracs, err := b.fractionSigns(fracs, args[1], c)
	if err != nil {
		return nil, err
	}
	for k := range fracs {
		x, err := one(&fracs[k])
		if err != nil {
			return nil, err
		}
		xs[k], srcs[k] = x, args[0]
	}
	list, err := b.callFunc("list_value", xs, srcs, at, c)
	if err != nil {
		return nil, fmt.Errorf("quantile list: %w", err)
	}
	t := list.Type()
	isNull := &planner.Call{Fn: "is_null", Args: []planner.Expr{xs[0]}, T: columnar.TBool}
	return &planner.Case{Whens: []planner.When{{Cond: isNull, Then: &planner.Const{Val: columnar.NullValue(t)}}}, Else: list, T: t}, nil
}

// approxQuantileArg types approx_quantile(x, q) as DuckDB 1.5 resolves its
// overloads: a scalar fraction gives SMALLINT, INTEGER, BIGINT, HUGEINT,
// DOUBLE, DATE, TIME, TIMESTAMP or TIMESTAMPTZ (other integers and
// DECIMALs cast to the nearest of these, a DECIMAL to the integer of its
// width); a list of fractions keeps TINYINT, FLOAT and DECIMAL too.
func (b *binder) approxQuantileArg(x planner.Expr, list bool, src callexpr.Expr, c ectx) (planner.Expr, columnar.Type, error) {
	t := x.Type()
	to := t
	switch t.ID {
	case columnar.Int16, columnar.Int32, columnar.Int64, columnar.Hugeint, columnar.Float64,
		columnar.Date, columnar.Time, columnar.Timestamp, columnar.TimestampTZ:
	case columnar.Null:
		to = columnar.TInt32
	case columnar.Int8:
		if !list {
			to = columnar.TInt64
		}
	case columnar.Uint8, columnar.Uint16, columnar.Uint32:
		to = columnar.TInt64
	case columnar.Uint64:
		to = columnar.THugeint
	case columnar.Uhugeint:
		to = columnar.TFloat64
	case columnar.Float32:
		if !list {
			to = columnar.TFloat64
		}
	case columnar.Decimal, columnar.Decimal128:
		if !list {
			to = map[bool]columnar.Type{true: columnar.TInt16}[t.Precision <= 4]
			switch {
			case t.Precision > 18:
				to = columnar.THugeint
			case t.Precision > 9:
				to = columnar.TInt64
			case t.Precision > 4:
				to = columnar.TInt32
			}
		}
	case columnar.TimestampS, columnar.TimestampMS, columnar.TimestampNS:
		to = columnar.TTimestamp
	default:
		return nil, t, b.typeErr(src, c, "approx_quantile(%s) is not supported", t)
	}
	if to == t {
		return x, t, nil
	}
	y, err := b.coerce(x, to, src, c)
	return y, to, err
}

// A negative fraction asks for a descending quantile (DuckDB's): the
// value at that fraction counted from the top. A list of fractions is all
// ascending or all descending, descending when one is negative, where 0
// is the largest value; the executor tells a descending fraction by its
// sign bit (executor/aggstate_quantile_typed.go), so a descending list's
// zeros become -0 and a lone -0 becomes 0.

// quantileFraction reads fraction v of a quantile: a number in [-1, 1]
// (NaN is not), a -0 kept (a descending list's 0: scalars come here as 0,
// bindHolisticOne); ok is false for anything else.
func quantileFraction(v columnar.Value) (float64, bool) {
	q := v.AsFloat()
	if !v.Type.IsNumeric() || !(q >= -1 && q <= 1) {
		return 0, false
	}
	return q, true
}

// fractionSigns returns a list's fractions as DOUBLEs, its zeros -0 when
// one is negative; mixed signs are an error, as in DuckDB.
func (b *binder) fractionSigns(fracs []columnar.Value, src callexpr.Expr, c ectx) ([]columnar.Value, error) {
	neg, pos := false, false
	for k, v := range fracs {
		if v.Null {
			return nil, b.typeErr(src, c, "fraction %d of the list is NULL", k+1)
		}
		q := v.AsFloat()
		neg, pos = neg || q < 0, pos || q > 0
	}
	if neg && pos {
		return nil, b.typeErr(src, c, "quantile fractions must have consistent signs")
	}
	out := make([]columnar.Value, len(fracs))
	for k, v := range fracs {
		if !v.Type.IsNumeric() {
			out[k] = v // refused by the quantile's own check
			continue
		}
		q := v.AsFloat() + 0
		if neg && q == 0 {
			q = math.Copysign(0, -1)
		}
		out[k] = columnar.FloatValue(columnar.TFloat64, q)
	}
	return out, nil
}

// reservoirArg types reservoir_quantile(x, q [, size]) as DuckDB 1.5
// resolves it: x a signed integer, HUGEINT, FLOAT or DOUBLE, kept as it is
// (an unsigned integer as the signed type that holds it, a DECIMAL as the
// integer of its width); size,
// when given, a constant integer above 0 (b2sql ranks every value:
// executor/aggstate_values.go).
func (b *binder) reservoirArg(name string, x planner.Expr, args []callexpr.Expr, constant func(int) (columnar.Value, error), c ectx) (planner.Expr, error) {
	if len(args) == 3 {
		v, err := constant(2)
		if err != nil {
			return nil, err
		}
		if !v.Type.IsInteger() || v.I <= 0 {
			return nil, b.typeErr(args[2], c, "%s: the size of the sample must be an integer above 0", name)
		}
	}
	switch t := x.Type(); t.ID {
	case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64, columnar.Hugeint, columnar.Float32, columnar.Float64:
		return x, nil
	case columnar.Decimal, columnar.Decimal128:
		// as DuckDB binds it: the integer of the DECIMAL's width, the
		// value rounded to it
		to := columnar.THugeint
		switch {
		case t.Precision <= 4:
			to = columnar.TInt16
		case t.Precision <= 9:
			to = columnar.TInt32
		case t.Precision <= 18:
			to = columnar.TInt64
		}
		return &planner.Cast{Arg: x, To: to}, nil
	case columnar.Null:
		return &planner.Const{Val: columnar.NullValue(columnar.TInt8)}, nil
	case columnar.Uint8, columnar.Uint16, columnar.Uint32, columnar.Uint64:
		to := map[columnar.TypeID]columnar.Type{columnar.Uint8: columnar.TInt16, columnar.Uint16: columnar.TInt32, columnar.Uint32: columnar.TInt64, columnar.Uint64: columnar.THugeint}[t.ID]
		return b.coerce(x, to, args[0], c)
	default:
		return nil, b.typeErr(args[0], c, "%s(%s) is not supported", name, t)
	}
}
