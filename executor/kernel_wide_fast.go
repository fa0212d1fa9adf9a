package executor

import (
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
)

// The 128-bit shortcut of wideArith. Decimal arithmetic on money columns
// (TPC-H's price × (1 − discount) − cost × quantity) makes wide DECIMALs
// from narrow ones: a product of two DECIMAL(15,2) is a DECIMAL(30,4),
// and the difference of two such products another. Through math/big each
// row allocated several integers; here the product of two 64-bit operands
// is one bits.Mul64 and a sum or difference at the result's scale one
// Int128 addition. Any other shape (a rescale, a division, an unsigned
// operand) and any result outside the type's range go the exact way,
// which also words the overflow error.

// wideArithFast returns x op y as type t, or ok false when the exact path
// must decide.
func wideArithFast(op arithOp, x, y columnar.Value, t columnar.Type) (columnar.Value, bool) {
	if t.ID != columnar.Decimal128 {
		return columnar.Value{}, false
	}
	a, as, ok := int128Num(x)
	if !ok {
		return columnar.Value{}, false
	}
	b, bs, ok := int128Num(y)
	if !ok {
		return columnar.Value{}, false
	}
	ts := int(t.Scale)
	var r columnar.Int128
	switch op {
	case opMul:
		if as+bs != ts || !a.IsInt64() || !b.IsInt64() {
			return columnar.Value{}, false
		}
		r = mul64(int64(a.Lo), int64(b.Lo))
	case opAdd, opSub:
		if as != ts || bs != ts {
			return columnar.Value{}, false
		}
		if op == opAdd {
			r, ok = a.Add(b)
		} else {
			r, ok = a.Sub(b)
		}
		if !ok {
			return columnar.Value{}, false
		}
	default:
		return columnar.Value{}, false
	}
	if !withinDigits(r, int(t.Precision)) {
		return columnar.Value{}, false
	}
	return columnar.WideValue(t, r), true
}

// int128Num reads a signed integer or DECIMAL value as an unscaled
// 128-bit integer and its scale; ok is false for unsigned types.
func int128Num(v columnar.Value) (columnar.Int128, int, bool) {
	t := v.Type
	switch {
	case t.ID == columnar.Decimal128:
		return v.Wide128(), int(t.Scale), true
	case t.ID == columnar.Hugeint:
		return v.Wide128(), 0, true
	case t.ID == columnar.Decimal:
		return columnar.Int128Of(v.I), int(t.Scale), true
	case t.IsSigned():
		return columnar.Int128Of(v.I), 0, true
	}
	return columnar.Int128{}, 0, false
}

// mul64 is the exact product of two int64s (at most 2^126 in magnitude).
func mul64(a, b int64) columnar.Int128 {
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = -ua
	}
	if b < 0 {
		ub = -ub
	}
	hi, lo := bits.Mul64(ua, ub)
	r := columnar.Int128{Hi: int64(hi), Lo: lo}
	if (a < 0) != (b < 0) {
		r, _ = r.Neg() // |r| < 2^127: no overflow
	}
	return r
}

// withinDigits reports whether |r| < 10^p, the range of a DECIMAL(p, s).
func withinDigits(r columnar.Int128, p int) bool {
	if p <= 0 || p >= len(pow10Int128) {
		return false
	}
	if r.Sign() < 0 {
		var ok bool
		if r, ok = r.Neg(); !ok {
			return false
		}
	}
	return r.Cmp(pow10Int128[p]) < 0
}

// pow10Int128[p] is 10^p for p ≤ MaxDecimal (10^38 < 2^127).
var pow10Int128 = func() []columnar.Int128 {
	t := make([]columnar.Int128, columnar.MaxDecimal+1)
	for p := range t {
		t[p], _ = columnar.Int128FromBig(columnar.Pow10Big(p))
	}
	return t
}()
