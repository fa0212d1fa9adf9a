package sql

import (
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// coerce converts x to type to, folding literal casts. src locates errors.
func (b *binder) coerce(x planner.Expr, to columnar.Type, src callexpr.Expr, c ectx) (planner.Expr, error) {
	if x.Type() == to {
		return x, nil
	}
	if x.Type().IsNested() && !to.IsNested() {
		// Only CAST turns a LIST, STRUCT or MAP into text (castTo), as in
		// DuckDB: concat([1], 'a') is an error, not '[1]a'.
		return nil, b.typeErr(src, c, "cannot implicitly cast %s to %s", x.Type(), to)
	}
	if y, ok := b.tzCast(x, to, false); ok { // bind_timezone.go
		if k, isConst := x.(*planner.Const); isConst {
			if _, folded := y.(*planner.Const); !folded {
				return nil, b.castErr(k, to, src, c, nil)
			}
		}
		return y, nil
	}
	if k, ok := x.(*planner.Const); ok {
		if info, isLit := b.lits[k]; isLit && info.kind == litFloat && to.ID == columnar.Decimal {
			// Exact decimal literals: 1.1 must not pick up binary rounding.
			if n, ok := parseDecimal(info.text, int(to.Precision), int(to.Scale), true); ok {
				return &planner.Const{Val: columnar.IntValue(to, n)}, nil
			}
		}
		v, done, err := castConst(k.Val, to)
		if err != nil && b.inTry > 0 {
			return &planner.Cast{Arg: x, To: to}, nil // fails when it runs: try's NULL
		}
		if err != nil {
			return nil, b.castErr(k, to, src, c, err)
		}
		if done {
			return &planner.Const{Val: v}, nil
		}
	}
	return &planner.Cast{Arg: x, To: to}, nil
}

// castErr is the error of a constant that does not cast to type to; err,
// when it is not errCast, says why in its own words.
func (b *binder) castErr(k *planner.Const, to columnar.Type, src callexpr.Expr, c ectx, err error) error {
	at := c.sp.lo
	if info, ok := b.lits[k]; ok {
		at = info.tok
	} else if src != nil {
		at = b.leafTok(src, c.sp)
	}
	msg := fmt.Sprintf("could not cast %s to %s", k, to)
	if err != nil && !errors.Is(err, errCast) {
		msg = err.Error()
	}
	return b.errAt(at, ErrType, msg)
}

// flexible reports whether x is an untyped literal that takes the type of
// what it meets: a string literal, NULL, or (when compare is set) a numeric
// literal exactly representable in type other.
func (b *binder) flexible(x planner.Expr, other columnar.Type, compare bool) bool {
	k, ok := x.(*planner.Const)
	if !ok {
		return false
	}
	if k.Val.Null && k.Val.Type.ID == columnar.Null {
		return true
	}
	info, ok := b.lits[k]
	if !ok {
		return false
	}
	switch info.kind {
	case litString:
		// Not to an ENUM: DuckDB compares an ENUM with text as text
		// ('ok'::mood < 'happy' is false whatever their order in mood).
		return other.ID != columnar.Varchar && other.ID != columnar.Null && other.ID != columnar.Enum
	case litInt, litFloat:
		if !compare {
			// Elsewhere (lists, VALUES, CASE, COALESCE) only an integer
			// literal adapts, and only to an integer type that holds it, as
			// DuckDB's INTEGER_LITERAL: [1::SMALLINT, 1] is SMALLINT[],
			// VALUES (2^128-1), (1) is UHUGEINT.
			if info.kind != litInt || !isInt(other) {
				return false
			}
		} else if !other.IsNumeric() {
			return false
		}
		if other.ID == columnar.Decimal {
			_, ok := parseDecimal(info.text, int(other.Precision), int(other.Scale), false)
			return ok
		}
		v, done, err := castConst(k.Val, other)
		if !done || err != nil {
			return false
		}
		back, _, err := castConst(v, k.Val.Type)
		return err == nil && columnar.Compare(back, k.Val) == 0
	}
	return false
}

// unify converts xs to one common type. compare selects the comparison
// rules (numeric literals fit to the other side).
func (b *binder) unify(xs []planner.Expr, srcs []callexpr.Expr, c ectx, compare bool, what string) ([]planner.Expr, columnar.Type, error) {
	// The type of the non-flexible operands decides. Compared with a
	// DECIMAL, an integer literal counts as DECIMAL(its digits, 0), as in
	// DuckDB, so that 100000000000000000000 > 99999999999999999999.99999
	// compares exactly.
	anyDec := false
	for _, x := range xs {
		anyDec = anyDec || compare && x.Type().IsDecimal()
	}
	typeOf := func(x planner.Expr) columnar.Type {
		if anyDec {
			return b.litDecimal(x, x.Type())
		}
		return x.Type()
	}
	var t columnar.Type
	have, tLit := false, false // tLit: t is an integer literal's DECIMAL
	for _, x := range xs {
		if have && b.flexible(x, t, compare) {
			continue
		}
		if !have {
			// Decide whether x is flexible against any non-literal operand.
			flex := false
			for _, y := range xs {
				if y != x && !b.isLiteral(y) && b.flexible(x, y.Type(), compare) {
					flex = true
					break
				}
			}
			if flex || (b.isNullLit(x) && len(xs) > 1) {
				continue
			}
			t, have = typeOf(x), true
			tLit = t != x.Type()
			continue
		}
		xt := typeOf(x)
		st, ok := superType(t, xt)
		if !ok && compare {
			st, ok = enumCompareType(t, xt) // types_enum.go
		}
		if !ok && compare {
			st, ok = bitCompareType(t, xt) // types_bit.go
		}
		// An integer literal beside a DECIMAL counts as an integer of its
		// digits: the DECIMAL's scale is kept.
		if xt != x.Type() && t.IsDecimal() {
			st = decimalWithInt(t, int(xt.Precision))
		} else if tLit && xt.IsDecimal() {
			st = decimalWithInt(xt, int(t.Precision))
		}
		tLit = false
		if !ok {
			return nil, t, b.typeErrAt(srcs, c, what, t, x.Type())
		}
		t = st
	}
	if !have {
		// Only literals: strings win over NULL; numbers are typed already.
		t = columnar.TNull
		for _, x := range xs {
			if st, ok := superType(t, typeOf(x)); ok {
				t = st
			} else {
				return nil, t, b.typeErrAt(srcs, c, what, t, x.Type())
			}
		}
	}
	if compare && t.IsDecimal() {
		// As DuckDB: DECIMALs whose common type would lose digits compare
		// as DOUBLE (0::DECIMAL(38,0) = 0.1::DECIMAL(38,37) is false); an
		// integer that does not fit fails to cast instead.
		for _, x := range xs {
			if x.Type().IsDecimal() && !decimalHolds(t, x.Type()) {
				t = columnar.TFloat64
				break
			}
		}
	}
	out := make([]planner.Expr, len(xs))
	for i, x := range xs {
		var src callexpr.Expr
		if i < len(srcs) {
			src = srcs[i]
		}
		y, err := b.coerce(x, t, src, c)
		if err != nil && what == "mix" && b.isStringLit(x) {
			// coalesce(1, 'a'): as in DuckDB the literal is cast only if
			// it is reached, so the cast is left for run time.
			y, err = &planner.Cast{Arg: x, To: t}, nil
		}
		if err != nil {
			return nil, t, err
		}
		out[i] = y
	}
	return out, t, nil
}

func (b *binder) typeErrAt(srcs []callexpr.Expr, c ectx, what string, a, bt columnar.Type) error {
	at := c.sp.lo
	if len(srcs) > 0 && srcs[0] != nil {
		at = b.leafTok(srcs[0], c.sp)
	}
	return b.errAt(at, ErrType, fmt.Sprintf("cannot %s %s with %s", what, a, bt))
}

func (b *binder) isLiteral(x planner.Expr) bool {
	k, ok := x.(*planner.Const)
	if !ok {
		return false
	}
	_, lit := b.lits[k]
	return lit || (k.Val.Null && k.Val.Type.ID == columnar.Null)
}

func (b *binder) isNullLit(x planner.Expr) bool {
	k, ok := x.(*planner.Const)
	return ok && k.Val.Null && k.Val.Type.ID == columnar.Null
}

// isStringLit reports an untyped string literal.
func (b *binder) isStringLit(x planner.Expr) bool {
	k, ok := x.(*planner.Const)
	return ok && b.isLiteral(x) && !k.Val.Null && k.Val.Type.ID == columnar.Varchar
}

// litDecimal is the type an integer literal takes when compared with a
// DECIMAL: DECIMAL(its digits, 0), as DuckDB fits integer literals (in
// arithmetic a literal counts as its integer type: price * 2 multiplies by
// a DECIMAL(10,0)); any other operand keeps type t.
func (b *binder) litDecimal(x planner.Expr, t columnar.Type) columnar.Type {
	k, ok := x.(*planner.Const)
	if !ok || k.Val.Null || !isInt(t) || t.ID == columnar.Uint64 {
		return t
	}
	info, isLit := b.lits[k]
	if !isLit || info.kind != litInt {
		return t
	}
	digits := len(strings.TrimLeft(strings.TrimLeft(info.text, "-+"), "0"))
	if digits > columnar.MaxDecimal {
		return t
	}
	return columnar.DecimalType(max(digits, 1), 0)
}
