package columnar

import (
	"encoding/binary"
	"math/bits"
)

// Mul returns a*b; ok is false when the product needs more than 128 bits
// (signed). Two operands with high halves both beyond their sign overflow
// at once; otherwise the product is at most two 64×64-bit products.
func (a Int128) Mul(b Int128) (Int128, bool) {
	neg := (a.Hi < 0) != (b.Hi < 0)
	ua, okA := a.abs()
	ub, okB := b.abs()
	if !okA || !okB || ua.Hi != 0 && ub.Hi != 0 {
		return Int128{}, false // −2^127 is left to the exact path
	}
	hi, lo := bits.Mul64(ua.Lo, ub.Lo)
	// At most one cross product: the high half of one operand times the
	// other's low half, which must fit 64 bits.
	var x, y uint64
	switch {
	case ua.Hi != 0:
		x, y = uint64(ua.Hi), ub.Lo
	case ub.Hi != 0:
		x, y = uint64(ub.Hi), ua.Lo
	}
	ch, cl := bits.Mul64(x, y)
	hi, c := bits.Add64(hi, cl, 0)
	if ch != 0 || c != 0 || hi>>63 != 0 {
		return Int128{}, false // past 2^127 − 1
	}
	r := Int128{Hi: int64(hi), Lo: lo}
	if neg {
		r, _ = r.Neg()
	}
	return r, true
}

// abs is |a|; ok is false for −2^127, whose magnitude is not an Int128.
func (a Int128) abs() (Int128, bool) {
	if a.Hi >= 0 {
		return a, true
	}
	return a.Neg()
}

// pow10Int128[p] is 10^p for p ≤ MaxDecimal (10^38 < 2^127).
var pow10Int128 = func() []Int128 {
	t := make([]Int128, MaxDecimal+1)
	for p := range t {
		t[p], _ = Int128FromBig(Pow10Big(p))
	}
	return t
}()

// Pow10Int128 is 10^p for 0 ≤ p ≤ MaxDecimal.
func Pow10Int128(p int) Int128 { return pow10Int128[p] }

// WithinDigits reports whether |a| < 10^p, the range of a DECIMAL(p, s)
// (false for p outside 1..MaxDecimal).
func (a Int128) WithinDigits(p int) bool {
	if p <= 0 || p >= len(pow10Int128) {
		return false
	}
	a, ok := a.abs()
	return ok && a.Cmp(pow10Int128[p]) < 0
}

// PutInt128Key writes AppendInt128Key's 16 bytes of a into dst[:16].
func PutInt128Key(dst []byte, a Int128) {
	binary.BigEndian.PutUint64(dst, uint64(a.Hi)^1<<63)
	binary.BigEndian.PutUint64(dst[8:], a.Lo)
}
