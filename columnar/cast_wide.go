package columnar

import (
	"math"
	"math/big"
)

// CastWide converts v to type to when either is a 128-bit type (HUGEINT,
// UHUGEINT, DECIMAL(19..38)), exactly, as DuckDB casts: a DECIMAL or text
// to an integer rounds half away from zero, a float half to even; a value
// outside the target's range is an error (ok false). handled is false when
// neither type is wide, or the pair has no cast (the caller decides).
func CastWide(v Value, to Type) (out Value, handled, ok bool) {
	if !v.Type.Wide() && !to.Wide() {
		return Value{}, false, false
	}
	if v.Null {
		return NullValue(to), true, true
	}
	if to.ID == Varchar {
		return StringValue(string(v.AppendText(nil))), true, true
	}
	if to.IsFloat() && (v.Type.ID == Decimal128 || v.Type.ID == Hugeint) {
		// Correctly rounded without math/big (a per-row cast of wide sums
		// in HAVING).
		return floatResult(WideDecimalFloat(v.Wide128(), targetScale(v.Type)), to)
	}
	n, scale, handled, ok := exactOf(v, to)
	if !handled || !ok {
		return Value{}, handled, false
	}
	if n == nil { // a float: to a wide or other numeric type
		return fromFloatWide(v.AsFloat(), to)
	}
	switch {
	case to.Wide():
		r := rescaleBig(n, scale, targetScale(to))
		out, ok := WideFromBig(to, r)
		return out, true, ok
	case to.ID == Decimal:
		r := rescaleBig(n, scale, int(to.Scale))
		if !r.IsInt64() || new(big.Int).Abs(r).Cmp(Pow10Big(int(to.Precision))) >= 0 {
			return Value{}, true, false
		}
		return IntValue(to, r.Int64()), true, true
	case to.IsInteger():
		r := rescaleBig(n, scale, 0)
		if to.ID == Uint64 {
			if r.Sign() < 0 || !r.IsUint64() {
				return Value{}, true, false
			}
			return UintValue(r.Uint64()), true, true
		}
		lo, hi := to.IntRange()
		if !r.IsInt64() || r.Int64() < lo || r.Int64() > hi {
			return Value{}, true, false
		}
		return IntValue(to, r.Int64()), true, true
	case to.IsFloat():
		f := new(big.Float).SetPrec(200).SetInt(n)
		if scale > 0 {
			f.Quo(f, new(big.Float).SetPrec(200).SetInt(Pow10Big(scale)))
		}
		x, _ := f.Float64()
		return floatResult(x, to)
	case to.ID == Bool:
		return BoolValue(n.Sign() != 0), true, true
	}
	return Value{}, false, false
}

// floatResult is x as the float type to; a FLOAT out of range is an error.
func floatResult(x float64, to Type) (out Value, handled, ok bool) {
	if to.ID == Float32 {
		if !math.IsInf(x, 0) && math.Abs(x) > math.MaxFloat32 {
			return Value{}, true, false
		}
		x = float64(float32(x))
	}
	return FloatValue(to, x), true, true
}

func targetScale(t Type) int {
	if t.ID == Decimal128 {
		return int(t.Scale)
	}
	return 0
}

// exactOf reads v as an unscaled integer and a scale; n is nil for a
// float (read by fromFloatWide). Text is read at to's scale.
func exactOf(v Value, to Type) (n *big.Int, scale int, handled, ok bool) {
	t := v.Type
	switch {
	case t.Wide():
		return v.WideBig(), targetScale(t), true, true
	case t.ID == Decimal:
		return big.NewInt(v.I), int(t.Scale), true, true
	case t.ID == Uint64:
		return new(big.Int).SetUint64(uint64(v.I)), 0, true, true
	case t.IsInteger() || t.ID == Bool:
		return big.NewInt(v.I), 0, true, true
	case t.IsFloat():
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return nil, 0, true, false
		}
		return nil, 0, true, true
	case t.ID == Varchar:
		s := targetScale(to)
		if to.ID == Decimal {
			s = int(to.Scale)
		}
		n, ok := ParseBigDecimal(v.S, s)
		if !ok {
			// Exponent forms ('1e20') read through a float.
			f, ok2 := new(big.Float).SetPrec(200).SetString(trimSpace(v.S))
			if !ok2 || f.IsInf() {
				return nil, 0, true, false
			}
			f.Mul(f, new(big.Float).SetPrec(200).SetInt(Pow10Big(s)))
			n = roundBigFloat(f)
		}
		return n, s, true, true
	}
	return nil, 0, false, false
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\n') {
		s = s[:len(s)-1]
	}
	return s
}

// roundBigFloat rounds half away from zero.
func roundBigFloat(f *big.Float) *big.Int {
	half := big.NewFloat(0.5)
	if f.Sign() < 0 {
		half.Neg(half)
	}
	r := new(big.Float).SetPrec(f.Prec()).Add(f, half)
	n, _ := r.Int(nil)
	return n
}

// rescaleBig moves unscaled n from scale s to scale t, rounding half away
// from zero when digits are dropped.
func rescaleBig(n *big.Int, s, t int) *big.Int {
	switch {
	case t > s:
		return new(big.Int).Mul(n, Pow10Big(t-s))
	case t < s:
		d := Pow10Big(s - t)
		q, r := new(big.Int).QuoRem(n, d, new(big.Int))
		r.Abs(r).Lsh(r, 1)
		if r.Cmp(d) >= 0 {
			if n.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
		return q
	}
	return n
}

// RescaleBig is rescaleBig for callers outside the package (kernels).
func RescaleBig(n *big.Int, s, t int) *big.Int { return rescaleBig(n, s, t) }

// fromFloatWide converts a float to a wide type: a DECIMAL as DuckDB does,
// f·10^scale multiplied in float64 (so rounded to a double: 601234517490120
// to DECIMAL(38,3) is 601234517490119.936, not .000) and then rounded half
// away from zero, as the 64-bit DECIMAL cast does; an integer half to even.
func fromFloatWide(f float64, to Type) (Value, bool, bool) {
	if !to.Wide() {
		return Value{}, false, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Value{}, true, false
	}
	r := math.RoundToEven(f)
	if to.ID == Decimal128 {
		r = math.Round(f * math.Pow10(int(to.Scale)))
	}
	if math.IsInf(r, 0) {
		return Value{}, true, false
	}
	n, _ := new(big.Float).SetFloat64(r).Int(nil)
	out, ok := WideFromBig(to, n)
	return out, true, ok
}
