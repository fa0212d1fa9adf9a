package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindBinary binds arithmetic (// as IntDivStr) and || (as BitOrStr).
func (b *binder) bindBinary(e *callexpr.BinaryExpr, c ectx) (planner.Expr, error) {
	fn := ""
	switch e.Operator {
	case callexpr.PlusStr, callexpr.MinusStr, callexpr.MultStr, callexpr.DivStr, callexpr.ModStr:
		fn = e.Operator
	case callexpr.IntDivStr:
		fn = "//"
	case callexpr.BitOrStr:
		fn = "||"
	case "mod":
		fn = "%"
	case callexpr.BitAndStr, callexpr.ShiftLeftStr, callexpr.ShiftRightStr, callexpr.BitXorStr:
		x, _, err := b.bindBitwise(e, c)
		return x, err
	default:
		return nil, b.errAt(b.leafTok(e.Right, c.sp), ErrUnsupported, "operator "+quote(e.Operator)+" is not supported")
	}
	l, err := b.bindExpr(e.Left, c)
	if err != nil {
		return nil, err
	}
	r, err := b.bindExpr(e.Right, c)
	if err != nil {
		return nil, err
	}
	return b.arith(fn, l, r, e.Left, e.Right, c)
}

func quote(s string) string { return "\"" + s + "\"" }

// arith types one binary operator call; see types.go and functions.go.
func (b *binder) arith(fn string, l, r planner.Expr, ls, rs callexpr.Expr, c ectx) (planner.Expr, error) {
	call := func(t columnar.Type, args ...planner.Expr) planner.Expr {
		return &planner.Call{Fn: fn, Args: args, T: t}
	}
	if fn == "||" && (l.Type().ID == columnar.List || r.Type().ID == columnar.List) {
		// [1] || [2] is list_concat, but NULL when either side is.
		x, err := b.callFunc("list_concat", []planner.Expr{l, r}, []callexpr.Expr{ls, rs}, b.leafTok(ls, c.sp), c)
		if call, ok := x.(*planner.Call); ok {
			call.Fn = "list_concat_op"
		}
		return x, err
	}
	if fn == "||" {
		args := []planner.Expr{l, r}
		for i, x := range args {
			y, err := b.coerce(x, columnar.TVarchar, []callexpr.Expr{ls, rs}[i], c)
			if err != nil {
				return nil, err
			}
			args[i] = y
		}
		return call(columnar.TVarchar, args...), nil
	}
	// An untyped string literal or NULL takes the other side's type.
	if b.flexible(l, r.Type(), false) && !b.isLiteral(r) || b.isNullLit(l) {
		x, err := b.coerce(l, r.Type(), ls, c)
		if err != nil {
			return nil, err
		}
		l = x
	} else if b.flexible(r, l.Type(), false) || b.isNullLit(r) {
		x, err := b.coerce(r, l.Type(), rs, c)
		if err != nil {
			return nil, err
		}
		r = x
	}
	lt, rt := l.Type(), r.Type()
	if lt.ID == columnar.Null && rt.ID == columnar.Null {
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
	}
	if lt.IsTimestampUnit() || rt.IsTimestampUnit() {
		// DuckDB has no arithmetic of its own for TIMESTAMP_S/MS/NS: + and
		// - read them as TIMESTAMP (ts_ns + INTERVAL is a TIMESTAMP).
		l, r = asTimestamp(l), asTimestamp(r)
		lt, rt = l.Type(), r.Type()
	}
	if lt.ID == columnar.Time || rt.ID == columnar.Time {
		return b.timeArith(fn, l, r, ls, rs, c)
	}
	if x, ok, err := b.tzArith(fn, l, r, ls, rs, c); ok { // bind_timezone.go
		return x, err
	}
	// Temporal arithmetic.
	if lt.IsTemporal() || rt.IsTemporal() || lt.ID == columnar.Interval || rt.ID == columnar.Interval {
		return b.temporalArith(fn, l, r, ls, rs, c)
	}
	if !isNum(lt) || !isNum(rt) {
		return nil, b.typeErr(ls, c, "cannot apply %s to %s and %s", fn, lt, rt)
	}
	if b.unsignedLiteral(l, rt) {
		if l, err := b.coerce(l, rt, ls, c); err == nil {
			return b.arith(fn, l, r, ls, rs, c)
		}
	} else if b.unsignedLiteral(r, lt) {
		if r, err := b.coerce(r, lt, rs, c); err == nil {
			return b.arith(fn, l, r, ls, rs, c)
		}
	}
	t := numericSuper(lt, rt)
	if (lt.ID == columnar.Uhugeint || rt.ID == columnar.Uhugeint) && (lt.IsSigned() || rt.IsSigned()) {
		t = columnar.TFloat64 // DuckDB: INTEGER + UHUGEINT is DOUBLE
	}
	switch fn {
	case "/":
		t = columnar.TFloat64
	case "//":
		// DuckDB's // of floats and DECIMALs is float division (7.5 // 2
		// is 3.75), NULL for a zero divisor as // of integers is.
		if t.IsDecimal() {
			t = columnar.TFloat64
		}
	case "*":
		if lt.IsDecimal() || rt.IsDecimal() {
			if pt, lt2, rt2, ok := decimalProduct(lt, rt); ok {
				lc, err := b.coerce(l, lt2, ls, c)
				if err != nil {
					return nil, err
				}
				rc, err := b.coerce(r, rt2, rs, c)
				if err != nil {
					return nil, err
				}
				return call(pt, lc, rc), nil
			}
			if t.IsDecimal() {
				// Both exact, but the product's scale passes 38: DuckDB's error.
				return nil, b.typeErr(ls, c, "needed scale %d to accurately represent the multiplication result, but this is out of range of the DECIMAL type (max scale is 38); add a cast to DOUBLE or to a DECIMAL with a lower scale", int(lt.Scale)+int(rt.Scale))
			}
		}
	case "%":
		// As DuckDB: DECIMALs with no common DECIMAL type (one that holds
		// both) take their remainder in DOUBLE.
		if t.IsDecimal() && (!decimalHolds(t, lt) || !decimalHolds(t, rt)) {
			t = columnar.TFloat64
		}
	case "+", "-":
		if t.IsDecimal() {
			t = decimalSum(lt, rt)
		}
	}
	lc, err := b.coerce(l, t, ls, c)
	if err != nil {
		return nil, err
	}
	rc, err := b.coerce(r, t, rs, c)
	if err != nil {
		return nil, err
	}
	if fn == "/" || fn == "%" {
		return b.zeroDivisorNull(call(t, lc, rc)), nil // bind_ieee.go
	}
	return call(t, lc, rc), nil
}

// temporalArith covers DATE ± integer, DATE - DATE, TIMESTAMP - TIMESTAMP
// and TIMESTAMP ± INTERVAL (DATE ± INTERVAL goes through TIMESTAMP).
func (b *binder) temporalArith(fn string, l, r planner.Expr, ls, rs callexpr.Expr, c ectx) (planner.Expr, error) {
	lt, rt := l.Type(), r.Type()
	mk := func(t columnar.Type, args ...planner.Expr) planner.Expr {
		return &planner.Call{Fn: fn, Args: args, T: t}
	}
	days := func(x planner.Expr, src callexpr.Expr) (planner.Expr, error) {
		if x.Type().ID == columnar.Int64 || x.Type().ID == columnar.Int32 {
			return x, nil
		}
		t := columnar.TInt32
		if x.Type().ID == columnar.Uint32 {
			t = columnar.TInt64
		}
		return b.coerce(x, t, src, c)
	}
	toTS := func(x planner.Expr, src callexpr.Expr) (planner.Expr, error) {
		return b.coerce(x, columnar.TTimestamp, src, c)
	}
	switch {
	case lt.ID == columnar.Date && rt.IsInteger() && (fn == "+" || fn == "-") && rt.ID != columnar.Uint64:
		d, err := days(r, rs)
		if err != nil {
			return nil, err
		}
		return mk(columnar.TDate, l, d), nil
	case lt.IsInteger() && rt.ID == columnar.Date && fn == "+" && lt.ID != columnar.Uint64:
		d, err := days(l, ls)
		if err != nil {
			return nil, err
		}
		return mk(columnar.TDate, d, r), nil
	case lt.ID == columnar.Date && rt.ID == columnar.Date && fn == "-":
		return mk(columnar.TInt64, l, r), nil
	case lt.IsTemporal() && rt.IsTemporal() && fn == "-":
		lx, err := toTS(l, ls)
		if err != nil {
			return nil, err
		}
		rx, err := toTS(r, rs)
		if err != nil {
			return nil, err
		}
		return mk(columnar.TInterval, lx, rx), nil
	case lt.IsTemporal() && rt.ID == columnar.Interval && (fn == "+" || fn == "-"):
		lx, err := toTS(l, ls)
		if err != nil {
			return nil, err
		}
		return mk(columnar.TTimestamp, lx, r), nil
	case lt.ID == columnar.Interval && rt.IsTemporal() && fn == "+":
		rx, err := toTS(r, rs)
		if err != nil {
			return nil, err
		}
		return mk(columnar.TTimestamp, rx, l), nil
	}
	if x, ok, err := b.intervalArith(fn, l, r, ls, rs, c); ok {
		return x, err
	}
	return nil, b.typeErr(ls, c, "cannot apply %s to %s and %s", fn, lt, rt)
}

func (b *binder) bindUnary(e *callexpr.UnaryExpr, c ectx) (planner.Expr, error) {
	switch e.Operator {
	case callexpr.UMinusStr:
		if v, ok := e.Expr.(*callexpr.SQLVal); ok && (v.Type == callexpr.IntVal || v.Type == callexpr.FloatVal) {
			return b.bindLiteral(v, true, c)
		}
		x, err := b.bindExpr(e.Expr, c)
		if err != nil {
			return nil, err
		}
		return b.negate(x, e.Expr, c)
	case callexpr.UPlusStr:
		return b.bindExpr(e.Expr, c)
	case callexpr.TildaStr:
		return b.bindBitNot(e, c)
	}
	return nil, b.errAt(b.leafTok(e.Expr, c.sp), ErrUnsupported, fmt.Sprintf("operator %q is not supported", e.Operator))
}

// negate builds -x.
func (b *binder) negate(x planner.Expr, src callexpr.Expr, c ectx) (planner.Expr, error) {
	if x.Type().ID == columnar.Null {
		return x, nil
	}
	if !x.Type().IsNumeric() && x.Type().ID != columnar.Interval && x.Type().ID != columnar.Hugeint && x.Type().ID != columnar.Decimal128 {
		return nil, b.typeErr(src, c, "cannot negate %s", x.Type())
	}
	return &planner.Call{Fn: "neg", Args: []planner.Expr{x}, T: x.Type()}, nil
}

// decimalProduct types DECIMAL(p1,s1) * DECIMAL(p2,s2) as DuckDB does:
// DECIMAL(p1+p2, s1+s2), the product of the scaled integers, exact. Past
// 18 digits of precision, two 64-bit operands whose product's scale is
// decimalSum is DuckDB's type of a DECIMAL + or - (an integer operand
// counts as DECIMAL(its type's digits, 0)): the larger scale, the wider
// whole part, one more digit for the carry, at most 38 digits with an
// overflow check; operands that do not fit it fail to cast
// (DECIMAL(35,35) + 10000 is an error, as in DuckDB).
func decimalSum(lt, rt columnar.Type) columnar.Type {
	asDec := func(t columnar.Type) columnar.Type {
		if t.IsDecimal() {
			return t
		}
		return columnar.DecimalType(min(intDigits(t), columnar.MaxDecimal), 0)
	}
	l, r := asDec(lt), asDec(rt)
	s := int(max(l.Scale, r.Scale))
	whole := max(int(l.Precision)-int(l.Scale), int(r.Precision)-int(r.Scale))
	p := max(whole+s, int(l.Precision), int(r.Precision)) + 1
	return columnar.DecimalType(min(p, columnar.MaxDecimal), s)
}

// below 18 keep DuckDB's int64 product (DECIMAL(18, s1+s2)) with an
// overflow check; otherwise the product has up to 38 digits (128 bits).
// An integer operand counts as DECIMAL(digits, 0); a scale past 38 gives
// ok == false (the caller falls back to DOUBLE). lt2 and rt2 are the types
// the operands are cast to.
func decimalProduct(lt, rt columnar.Type) (pt, lt2, rt2 columnar.Type, ok bool) {
	asDec := func(t columnar.Type) (columnar.Type, bool) {
		switch {
		case t.IsDecimal():
			return t, true
		case isInt(t) && intDigits(t) <= columnar.MaxDecimal:
			return columnar.DecimalType(intDigits(t), 0), true
		}
		return t, false
	}
	lt2, lok := asDec(lt)
	rt2, rok := asDec(rt)
	s := int(lt2.Scale) + int(rt2.Scale)
	if !lok || !rok || s > columnar.MaxDecimal {
		return pt, lt, rt, false
	}
	// As DuckDB: p1+p2 digits, at most 38; but two 64-bit DECIMALs whose
	// product's scale is below 18 multiply in 64 bits, capped at 18
	// digits with an overflow check.
	p := min(int(lt2.Precision)+int(rt2.Precision), columnar.MaxDecimal)
	if p > maxDecimal && !lt2.Wide() && !rt2.Wide() && s < maxDecimal {
		p = maxDecimal
	}
	return columnar.DecimalType(p, s), lt2, rt2, true
}

// unsignedLiteral reports whether x is an integer literal whose value an
// unsigned integer type t holds, and that is not of type t already: beside
// an unsigned operand it takes t, as DuckDB's integer literals take the
// other side's type when they fit (hash(x) % 1000 is UBIGINT; without
// this, UBIGINT and the literal's INTEGER share no integer type and the
// result would be DOUBLE).
func (b *binder) unsignedLiteral(x planner.Expr, t columnar.Type) bool {
	k, ok := x.(*planner.Const)
	if !ok || k.Val.Null || !t.IsInteger() || t.IsSigned() || k.Val.Type == t {
		return false
	}
	if info, isLit := b.lits[k]; !isLit || info.kind != litInt {
		return false
	}
	return b.flexible(x, t, true)
}
