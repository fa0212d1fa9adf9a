package executor

import (
	"math"
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
)

// intArithFast computes x op y (op is +, - or *) for rows [0, n) of
// NULL-free integer vectors, at most one of them Const, as plain loops
// that collect overflow in a flag instead of branching per row. It reports
// false when some row overflowed (r is then garbage); the caller reruns the
// per-row loop, which names the offending values. wide means the operands
// may wrap int64 (BIGINT, DECIMAL): the wrap is detected per operation;
// every result must also lie within [lo, hi] (a narrower integer type's
// range, whose operands cannot wrap int64, or a DECIMAL's digits).
func intArithFast(op arithOp, wide bool, lo, hi int64, x, y *columnar.Vector, n int, r []int64) bool {
	r = r[:n]
	if op == opMul && productFits(x, y, n, hi) {
		mulPlain(x, y, n, r)
		return true
	}
	var bad int64 // wide: sign bit set on overflow; narrow: non-zero on a range miss
	switch {
	case x.Const:
		p := x.Ints[0]
		c := y.Ints[:n]
		switch op {
		case opAdd:
			for i, q := range c {
				v := p + q
				bad |= (p ^ v) & (q ^ v)
				r[i] = v
			}
		case opSub:
			for i, q := range c {
				v := p - q
				bad |= (p ^ q) & (p ^ v)
				r[i] = v
			}
		case opMul:
			for i, q := range c {
				v, o := mulOverflow(p, q)
				bad |= o
				r[i] = v
			}
		}
	case y.Const:
		q := y.Ints[0]
		a := x.Ints[:n]
		switch op {
		case opAdd:
			for i, p := range a {
				v := p + q
				bad |= (p ^ v) & (q ^ v)
				r[i] = v
			}
		case opSub:
			for i, p := range a {
				v := p - q
				bad |= (p ^ q) & (p ^ v)
				r[i] = v
			}
		case opMul:
			for i, p := range a {
				v, o := mulOverflow(p, q)
				bad |= o
				r[i] = v
			}
		}
	default:
		a, c := x.Ints[:n], y.Ints[:n]
		switch op {
		case opAdd:
			for i, p := range a {
				q := c[i]
				v := p + q
				bad |= (p ^ v) & (q ^ v)
				r[i] = v
			}
		case opSub:
			for i, p := range a {
				q := c[i]
				v := p - q
				bad |= (p ^ q) & (p ^ v)
				r[i] = v
			}
		case opMul:
			for i, p := range a {
				v, o := mulOverflow(p, c[i])
				bad |= o
				r[i] = v
			}
		}
	}
	if wide && bad < 0 {
		return false
	}
	if lo == math.MinInt64 && hi == math.MaxInt64 {
		return true
	}
	// Narrow operands never wrap int64; every result must also lie in the
	// type's range (a DECIMAL's digits).
	for _, v := range r {
		if v < lo || v > hi {
			return false
		}
	}
	return true
}

// mulOverflow returns p*q wrapped to int64 and a value whose sign bit is
// set when the exact product does not fit in an int64.
func mulOverflow(p, q int64) (int64, int64) {
	hi, lo := bits.Mul64(uint64(p), uint64(q))
	// The signed high word of the 128-bit product.
	sh := int64(hi) - (p>>63)&q - (q>>63)&p
	v := int64(lo)
	// Fits iff the high word is the sign extension of the low word; d|-d
	// has its sign bit set exactly when d != 0.
	d := sh ^ v>>63
	return v, d | -d
}

// productFits reports whether every product x[i]*y[i] of rows [0, n) lies
// within [-hi, hi] (hi is the result type's largest value; its smallest is
// -hi or lower), judged from the operands' magnitudes: |v| <= 2^magBits, so
// |x*y| <= 2^(bx+by). One OR pass per operand is cheaper than checking
// each product (bits.Mul64 and a range pass); prices times discounts, the
// usual DECIMAL product, are far from the bound.
func productFits(x, y *columnar.Vector, n int, hi int64) bool {
	bx := magBits(x, n)
	if bx > 62 {
		return false
	}
	by := magBits(y, n)
	return bx+by <= 62 && int64(1)<<(bx+by) <= hi
}

// magBits is the least b with |v| <= 2^b for every value of rows [0, n)
// of v (v ^ v>>63 is v, or -v-1 for a negative v).
func magBits(v *columnar.Vector, n int) int {
	if v.Const {
		n = 1
	}
	a := v.Ints[:n]
	var m0, m1 uint64
	i := 0
	for ; i+2 <= len(a); i += 2 {
		m0 |= uint64(a[i] ^ a[i]>>63)
		m1 |= uint64(a[i+1] ^ a[i+1]>>63)
	}
	if i < len(a) {
		m0 |= uint64(a[i] ^ a[i]>>63)
	}
	return bits.Len64(m0 | m1)
}

// mulPlain stores x*y for rows [0, n), known not to overflow.
func mulPlain(x, y *columnar.Vector, n int, r []int64) {
	switch {
	case x.Const:
		p := x.Ints[0]
		for i, q := range y.Ints[:n] {
			r[i] = p * q
		}
	case y.Const:
		q := y.Ints[0]
		for i, p := range x.Ints[:n] {
			r[i] = p * q
		}
	default:
		a, c := x.Ints[:n], y.Ints[:n]
		for i, p := range a {
			r[i] = p * c[i]
		}
	}
}
