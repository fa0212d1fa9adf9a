package executor

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
)

// Math functions of DuckDB over DOUBLE (registered in func_*.go): the
// trigonometric and hyperbolic functions, degrees/radians, cbrt, even,
// round_even, isnan/isinf/isfinite, signbit; gcd, lcm, factorial over
// BIGINT; bit_count over any integer width. A result outside the
// function's domain is an error, as in DuckDB (asin(2), cot(0)).
func fnFloat1(f func(float64) float64) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		return columnar.FloatValue(t, f(a[0].F)), nil
	}
}

// fnDomain is f on [lo, hi]; outside it an error (NaN passes through).
func fnDomain(name string, f func(float64) float64, lo, hi float64) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		x := a[0].F
		if x < lo || x > hi {
			return columnar.Value{}, fmt.Errorf("%s is undefined for %v (outside [%v, %v])", name, x, lo, hi)
		}
		return columnar.FloatValue(t, f(x)), nil
	}
}

func fnCot(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].F == 0 {
		return columnar.Value{}, fmt.Errorf("cot is undefined for 0")
	}
	return columnar.FloatValue(t, 1/math.Tan(a[0].F)), nil
}

// fnEven rounds away from zero to the next even integer: even(1) = 2,
// even(-0.1) = -2, even(2) = 2.
func fnEven(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x := a[0].F
	r := math.Ceil(math.Abs(x))
	if math.Mod(r, 2) != 0 {
		r++
	}
	return columnar.FloatValue(t, math.Copysign(r, x)), nil
}

// fnRoundEven rounds x to n decimal places, ties to even (banker's
// rounding): round_even(2.5, 0) = 2, round_even(3.5, 0) = 4.
func fnRoundEven(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	p := math.Pow(10, float64(a[1].I))
	switch x := a[0].F; {
	case math.IsInf(p, 1) || math.IsInf(x*p, 0):
		return columnar.FloatValue(t, x), nil // more digits than a double has
	case p == 0:
		return columnar.FloatValue(t, math.Copysign(0, x)), nil
	}
	return columnar.FloatValue(t, math.RoundToEven(a[0].F*p)/p), nil
}

func fnFloatTest(f func(float64) bool) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		return columnar.BoolValue(f(a[0].F)), nil
	}
}

func gcd(x, y uint64) uint64 {
	for y != 0 {
		x, y = y, x%y
	}
	return x
}

func absU(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}

// fnGCD is the non-negative greatest common divisor; gcd(0, 0) = 0.
func fnGCD(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	g := gcd(absU(a[0].I), absU(a[1].I))
	if g > math.MaxInt64 {
		return columnar.Value{}, fmt.Errorf("gcd(%d, %d) is out of range for BIGINT", a[0].I, a[1].I)
	}
	return columnar.IntValue(t, int64(g)), nil
}

// fnLCM is the non-negative least common multiple; 0 when either is 0.
func fnLCM(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x, y := absU(a[0].I), absU(a[1].I)
	if x == 0 || y == 0 {
		return columnar.IntValue(t, 0), nil
	}
	hi, lo := bits.Mul64(x/gcd(x, y), y)
	if hi != 0 || lo > math.MaxInt64 {
		return columnar.Value{}, fmt.Errorf("lcm(%d, %d) is out of range for BIGINT", a[0].I, a[1].I)
	}
	return columnar.IntValue(t, int64(lo)), nil
}

// fnFactorial is n! in BIGINT (DuckDB's is HUGEINT): 20! is the largest
// that fits; 0! = 1, a negative n is an error, as in DuckDB.
func fnFactorial(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	n := a[0].I
	if n < 0 {
		return columnar.Value{}, fmt.Errorf("factorial of a negative number (%d) is undefined", n)
	}
	if n > 20 {
		return columnar.Value{}, fmt.Errorf("factorial(%d) is out of range for BIGINT", n)
	}
	r := int64(1)
	for i := int64(2); i <= n; i++ {
		r *= i
	}
	return columnar.IntValue(t, r), nil
}

// fnBitCount counts the set bits of the argument in its own width:
// bit_count(-1) is 32 for an INTEGER, 64 for a BIGINT.
func fnBitCount(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	v := a[0]
	x := uint64(v.I)
	switch v.Type.ID {
	case columnar.Int8, columnar.Uint8:
		x &= 0xff
	case columnar.Int16, columnar.Uint16:
		x &= 0xffff
	case columnar.Int32, columnar.Uint32:
		x &= 0xffffffff
	}
	return columnar.IntValue(t, int64(bits.OnesCount64(x))), nil
}
