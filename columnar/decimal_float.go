package columnar

import (
	"math"
	"math/bits"
	"strconv"
)

// DecimalFloat is the float64 nearest to the DECIMAL whose unscaled value
// is v at scale s, as DuckDB converts: 0.41000000000000003 (unscaled
// 41000000000000003, past 2^53) must not first round its integer.
// A division of two exactly representable numbers rounds once, so the
// common case stays one division; the rest goes through the decimal text.
func DecimalFloat(v int64, s int) float64 {
	const exact = 1 << 53
	if v >= -exact && v <= exact && s <= 22 {
		return float64(v) / math.Pow10(s)
	}
	return WideDecimalFloat(Int128Of(v), s)
}

// WideDecimalFloat is DecimalFloat for a 128-bit unscaled value (a wide
// DECIMAL, or a HUGEINT at scale 0): the digits and an exponent of -s,
// read by strconv.ParseFloat (correctly rounded), from a buffer on the
// stack: per-row casts of wide sums (a HAVING over SUMs of DECIMALs) cost
// neither math/big nor an allocation.
func WideDecimalFloat(a Int128, s int) float64 {
	if a.IsInt64() {
		if v := int64(a.Lo); v >= -1<<53 && v <= 1<<53 && s <= 22 {
			return float64(v) / math.Pow10(s)
		}
	}
	var buf [48]byte
	f, _ := strconv.ParseFloat(string(appendInt128Exp(buf[:0], a, s)), 64)
	return f
}

// appendInt128Exp appends a's decimal digits and "e-s" (s > 0).
func appendInt128Exp(dst []byte, a Int128, s int) []byte {
	hi, lo := uint64(a.Hi), a.Lo
	if a.Hi < 0 { // the magnitude, as unsigned (-2^127 included)
		var borrow uint64
		lo, borrow = bits.Sub64(0, lo, 0)
		hi, _ = bits.Sub64(0, hi, borrow)
		dst = append(dst, '-')
	}
	// Three chunks of 19 digits at most (2^128 < 10^39), least first.
	const chunk = 1e19
	var parts [3]uint64
	n := 0
	for hi != 0 || lo != 0 || n == 0 {
		var r uint64
		hi, r = hi/chunk, hi%chunk
		lo, r = bits.Div64(r, lo, chunk)
		parts[n] = r
		n++
	}
	dst = strconv.AppendUint(dst, parts[n-1], 10)
	for i := n - 2; i >= 0; i-- {
		var d [19]byte
		x := parts[i]
		for j := 18; j >= 0; j-- {
			d[j] = byte('0' + x%10)
			x /= 10
		}
		dst = append(dst, d[:]...)
	}
	if s > 0 {
		dst = append(dst, 'e', '-')
		dst = strconv.AppendInt(dst, int64(s), 10)
	}
	return dst
}
