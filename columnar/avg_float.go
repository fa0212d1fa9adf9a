package columnar

import (
	"math"
	"math/big"
	"math/bits"
)

// AvgFloat is DuckDB's AVG of integers or DECIMALs: the exact sum of
// count values (unscaled, scale s) divided as DuckDB divides it, so that
// the DOUBLE answer is DuckDB's to the last bit.
//
// DuckDB divides the sum by count·10^s (10^s as a double) once. Over
// SMALLINT, TINYINT and DECIMAL(≤4) (int16 storage) it does so in doubles;
// over wider types in x86's 80-bit long double (a 64-bit significand),
// and then rounds that to a double: two roundings, which now and then
// give the double next to the nearest one. Dividing the DOUBLE sum by the
// count (what b2sql did) rounds differently again, in more cases.
func AvgFloat(sum Int128, count int64, s int, narrow bool) float64 {
	scale := duckPow10(s)
	if narrow {
		// DuckDB's state is an int64 sum here (AvgState<int64_t>).
		return float64(int64(sum.Lo)) / (float64(count) * scale)
	}
	if f, ok := avgExtendedFast(sum, count, s); ok {
		return f
	}
	return avgExtendedBig(sum, count, scale)
}

// AvgNarrow reports whether DuckDB averages t in doubles (its int16
// state: SMALLINT and DECIMAL(≤4)) rather than in a long double.
func AvgNarrow(t Type) bool {
	return t.ID == Int16 || t.ID == Decimal && t.Precision <= 4
}

// duckPow10 is 10^s as DuckDB's Hugeint::Cast<double> makes it: the low
// 64 bits rounded to a double plus the high ones (exact below 10^20).
func duckPow10(s int) float64 {
	p, _ := Int128FromBig(pow10Big[s])
	return float64(p.Lo) + float64(float64(p.Hi)*0x1p64) // no fused multiply-add
}

// avgExtendedFast computes avgExtendedBig with integer arithmetic when the
// sum's magnitude and count·10^s fit in 64 bits: both are then exact in a
// long double, and the one rounding of the quotient to 64 bits and the one
// to 53 are done by hand.
func avgExtendedFast(sum Int128, count int64, s int) (float64, bool) {
	if s > 19 || count <= 0 {
		return 0, false
	}
	neg := sum.Hi < 0
	a := sum.Lo
	switch {
	case sum.Hi == 0:
	case neg && sum.Hi == -1 && sum.Lo != 0:
		a = -sum.Lo // |sum| ≤ 2^64-1
	default:
		return 0, false
	}
	hi, b := bits.Mul64(uint64(count), pow10Big[s].Uint64())
	if hi != 0 {
		return 0, false
	}
	if a == 0 {
		return 0, true
	}
	// q·2^-k with q in [2^63, 2^64): the quotient's 64-bit significand.
	k := 63 - bits.Len64(a) + bits.Len64(b)
	q, r := div128(a, k, b)
	if q < 1<<63 {
		k++
		q, r = div128(a, k, b)
	}
	// Round to 64 bits, to nearest, ties to even.
	if r > b-r || r == b-r && q&1 == 1 {
		q++
		if q == 0 {
			q, k = 1<<63, k-1
		}
	}
	// Round that to 53 bits the same way.
	m, low := q>>11, q&0x7ff
	if low > 0x400 || low == 0x400 && m&1 == 1 {
		m++
	}
	f := math.Ldexp(float64(m), 11-k)
	if neg {
		f = -f
	}
	return f, true
}

// div128 divides a·2^k (k in [0, 127]) by b; the quotient must fit 64 bits.
func div128(a uint64, k int, b uint64) (q, r uint64) {
	var hi, lo uint64
	switch {
	case k >= 64:
		hi = a << (k - 64)
	case k == 0:
		lo = a
	default:
		hi, lo = a>>(64-k), a<<k
	}
	return bits.Div64(hi, lo, b)
}

// avgExtendedBig is DuckDB's long double division with big.Float at 64
// bits of precision: the sum and count·scale each rounded to 64 bits, the
// quotient to 64, then to a double.
func avgExtendedBig(sum Int128, count int64, scale float64) float64 {
	ext := func() *big.Float { return new(big.Float).SetPrec(64).SetMode(big.ToNearestEven) }
	num := ext().SetInt(sum.Big())
	den := ext().SetInt64(count)
	den.Mul(den, ext().SetFloat64(scale))
	f, _ := ext().Quo(num, den).Float64()
	return f
}
