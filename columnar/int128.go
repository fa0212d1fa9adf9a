package columnar

import (
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// HUGEINT, UHUGEINT and DECIMAL(19..38) hold 128-bit integers (a wide
// DECIMAL's unscaled value). A vector keeps each as 16 bytes (PhysBytes),
// big-endian, with a HUGEINT's or DECIMAL's sign bit flipped, so that the
// bytes order as the numbers do: hashing, grouping, sorting, joins,
// spilling and min/max work on them unchanged, as on strings. Arithmetic
// decodes to Int128 (or math/big) per value.

// Int128 is a two's complement 128-bit integer: Hi is the upper half with
// the sign, Lo the lower half.
type Int128 struct {
	Hi int64
	Lo uint64
}

// Int128Of widens an int64.
func Int128Of(v int64) Int128 { return Int128{Hi: v >> 63, Lo: uint64(v)} }

// Uint128Of widens a uint64 (as an unsigned 128-bit value).
func Uint128Of(v uint64) Int128 { return Int128{Lo: v} }

// Add returns a+b; ok is false on signed overflow.
func (a Int128) Add(b Int128) (Int128, bool) {
	lo, c := bits.Add64(a.Lo, b.Lo, 0)
	hi := a.Hi + b.Hi + int64(c)
	r := Int128{hi, lo}
	// Overflow: both operands have the sign the result lacks.
	return r, !((a.Hi >= 0) == (b.Hi >= 0) && (r.Hi >= 0) != (a.Hi >= 0))
}

// Sub returns a-b; ok is false on signed overflow.
func (a Int128) Sub(b Int128) (Int128, bool) {
	lo, brw := bits.Sub64(a.Lo, b.Lo, 0)
	hi := a.Hi - b.Hi - int64(brw)
	r := Int128{hi, lo}
	return r, !((a.Hi >= 0) != (b.Hi >= 0) && (r.Hi >= 0) != (a.Hi >= 0))
}

// Neg returns -a; ok is false for the minimum value.
func (a Int128) Neg() (Int128, bool) { return Int128{}.Sub(a) }

// Sign is -1, 0 or 1.
func (a Int128) Sign() int {
	switch {
	case a.Hi < 0:
		return -1
	case a.Hi == 0 && a.Lo == 0:
		return 0
	}
	return 1
}

// Cmp compares a and b as signed numbers.
func (a Int128) Cmp(b Int128) int {
	switch {
	case a.Hi < b.Hi:
		return -1
	case a.Hi > b.Hi:
		return 1
	case a.Lo < b.Lo:
		return -1
	case a.Lo > b.Lo:
		return 1
	}
	return 0
}

// IsInt64 reports whether a fits an int64.
func (a Int128) IsInt64() bool { return a.Hi == int64(a.Lo)>>63 }

// Big converts a signed value to a big.Int.
func (a Int128) Big() *big.Int {
	b := new(big.Int).SetInt64(a.Hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(a.Lo))
}

// BigUnsigned converts an unsigned (UHUGEINT) value to a big.Int.
func (a Int128) BigUnsigned() *big.Int {
	b := new(big.Int).SetUint64(uint64(a.Hi))
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(a.Lo))
}

var (
	bigMin128  = new(big.Int).Lsh(big.NewInt(-1), 127)
	bigMax128  = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	bigMaxU128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
	mask64     = new(big.Int).SetUint64(math.MaxUint64)
)

// Int128FromBig converts b; ok is false when it needs more than 128 bits
// (signed).
func Int128FromBig(b *big.Int) (Int128, bool) {
	if b.Cmp(bigMin128) < 0 || b.Cmp(bigMax128) > 0 {
		return Int128{}, false
	}
	lo := new(big.Int).And(b, mask64).Uint64()
	hi := new(big.Int).Rsh(b, 64).Int64()
	return Int128{hi, lo}, true
}

// Uint128FromBig converts a non-negative b below 2^128 to an unsigned value.
func Uint128FromBig(b *big.Int) (Int128, bool) {
	if b.Sign() < 0 || b.Cmp(bigMaxU128) > 0 {
		return Int128{}, false
	}
	lo := new(big.Int).And(b, mask64).Uint64()
	hi := new(big.Int).Rsh(b, 64).Uint64()
	return Int128{int64(hi), lo}, true
}

// Float converts a signed value to the nearest float64.
func (a Int128) Float() float64 {
	if a.IsInt64() {
		return float64(int64(a.Lo))
	}
	f, _ := new(big.Float).SetInt(a.Big()).Float64()
	return f
}

// Pow10Big is 10^n, a new value the caller may change.
func Pow10Big(n int) *big.Int {
	if n >= 0 && n < len(pow10Big) {
		return new(big.Int).Set(pow10Big[n])
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// pow10Big holds 10^0 … 10^(2·MaxDecimal+2), every power that DECIMAL
// scales and precisions reach: per-row decimal arithmetic and casts ask
// for one per value, and big.Int.Exp cost more than the arithmetic.
var pow10Big = func() []*big.Int {
	t := make([]*big.Int, 2*MaxDecimal+3)
	t[0] = big.NewInt(1)
	for i := 1; i < len(t); i++ {
		t[i] = new(big.Int).Mul(t[i-1], big.NewInt(10))
	}
	return t
}()

// AppendInt128Key appends the 16 order-preserving bytes of a signed value.
func AppendInt128Key(dst []byte, a Int128) []byte {
	hi := uint64(a.Hi) ^ 1<<63
	return appendBE(appendBE(dst, hi), a.Lo)
}

// AppendUint128Key appends the 16 bytes of an unsigned value.
func AppendUint128Key(dst []byte, a Int128) []byte {
	return appendBE(appendBE(dst, uint64(a.Hi)), a.Lo)
}

func appendBE(dst []byte, v uint64) []byte {
	return append(dst, byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32), byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

func be(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
		uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
}

// Int128FromKey decodes AppendInt128Key's bytes (any other length gives 0).
func Int128FromKey(b []byte) Int128 {
	if len(b) != 16 {
		return Int128{}
	}
	return Int128{Hi: int64(be(b) ^ 1<<63), Lo: be(b[8:])}
}

// Uint128FromKey decodes AppendUint128Key's bytes.
func Uint128FromKey(b []byte) Int128 {
	if len(b) != 16 {
		return Int128{}
	}
	return Int128{Hi: int64(be(b)), Lo: be(b[8:])}
}

// Wide reports whether t is held in 128 bits: HUGEINT, UHUGEINT or a
// DECIMAL wider than 18 digits.
func (t Type) Wide() bool { return t.ID == Hugeint || t.ID == Uhugeint || t.ID == Decimal128 }

// IsDecimal reports a DECIMAL of any width.
func (t Type) IsDecimal() bool { return t.ID == Decimal || t.ID == Decimal128 }

// WideValue returns a HUGEINT, UHUGEINT or wide DECIMAL value of type t
// holding a (the unscaled value of a DECIMAL).
func WideValue(t Type, a Int128) Value {
	if t.ID == Uhugeint {
		return Value{Type: t, S: string(AppendUint128Key(nil, a))}
	}
	return Value{Type: t, S: string(AppendInt128Key(nil, a))}
}

// Wide128 is the 128-bit payload of a wide value.
func (v Value) Wide128() Int128 {
	if v.Type.ID == Uhugeint {
		return Uint128FromKey([]byte(v.S))
	}
	return Int128FromKey([]byte(v.S))
}

// WideBig is a wide value's payload as a big.Int (unscaled for a DECIMAL).
func (v Value) WideBig() *big.Int {
	if v.Type.ID == Uhugeint {
		return Uint128FromKey([]byte(v.S)).BigUnsigned()
	}
	return Int128FromKey([]byte(v.S)).Big()
}

// appendWide appends the text of a wide value.
func appendWide(dst []byte, v Value) []byte {
	b := v.WideBig()
	if v.Type.ID != Decimal128 {
		return b.Append(dst, 10)
	}
	return AppendBigDecimal(dst, b, int(v.Type.Scale))
}

// AppendBigDecimal appends the unscaled value n with scale s as DuckDB
// prints a DECIMAL: all s fraction digits.
func AppendBigDecimal(dst []byte, n *big.Int, s int) []byte {
	digits := new(big.Int).Abs(n).String()
	if n.Sign() < 0 {
		dst = append(dst, '-')
	}
	if s == 0 {
		return append(dst, digits...)
	}
	if len(digits) <= s {
		digits = strings.Repeat("0", s-len(digits)+1) + digits
	}
	dst = append(dst, digits[:len(digits)-s]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-s:]...)
}

// ParseBigDecimal reads a decimal number text ("-12.345", "1e3" is not one)
// as an unscaled value with scale s, rounding half away from zero; ok is
// false for bad text.
func ParseBigDecimal(text string, s int) (*big.Int, bool) {
	t := strings.TrimSpace(text)
	neg := false
	switch {
	case strings.HasPrefix(t, "-"):
		neg, t = true, t[1:]
	case strings.HasPrefix(t, "+"):
		t = t[1:]
	}
	whole, frac, _ := strings.Cut(t, ".")
	if whole == "" && frac == "" || !allDigits(whole) || !allDigits(frac) {
		return nil, false
	}
	round := false
	if len(frac) > s {
		round = frac[s] >= '5'
		frac = frac[:s]
	}
	frac += strings.Repeat("0", s-len(frac))
	n, ok := new(big.Int).SetString("0"+whole+frac, 10)
	if !ok {
		return nil, false
	}
	if round {
		n.Add(n, big.NewInt(1))
	}
	if neg {
		n.Neg(n)
	}
	return n, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// WideFromBig makes a value of wide type t from an unscaled big.Int; ok is
// false when it does not fit (a DECIMAL's precision, HUGEINT's or
// UHUGEINT's range).
func WideFromBig(t Type, n *big.Int) (Value, bool) {
	switch t.ID {
	case Uhugeint:
		a, ok := Uint128FromBig(n)
		return WideValue(t, a), ok
	case Decimal128:
		if new(big.Int).Abs(n).Cmp(Pow10Big(int(t.Precision))) >= 0 {
			return Value{}, false
		}
	}
	a, ok := Int128FromBig(n)
	return WideValue(t, a), ok
}

// WideFloat is a wide value as the nearest float64 (a DECIMAL's scaled).
func WideFloat(v Value) float64 {
	if v.Type.ID != Uhugeint {
		if a := v.Wide128(); a.IsInt64() {
			return DecimalFloat(int64(a.Lo), targetScale(v.Type))
		}
	}
	f := new(big.Float).SetPrec(200).SetInt(v.WideBig())
	if v.Type.ID == Decimal128 && v.Type.Scale > 0 {
		f.Quo(f, new(big.Float).SetPrec(200).SetInt(Pow10Big(int(v.Type.Scale))))
	}
	r, _ := f.Float64()
	return r
}
