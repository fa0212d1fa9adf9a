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
