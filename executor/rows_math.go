package executor

import (
	"fmt"
	"math"
	"math/big"

	"github.com/b2sql/b2sql/columnar"
)

// Row functions of the math family (registered in func_math.go).

func fnMath1(f func(float64) float64) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		x := a[0].F
		r := f(x)
		if math.IsNaN(r) && !math.IsNaN(x) {
			return columnar.Value{}, fmt.Errorf("cannot take the logarithm or square root of %v", x)
		}
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			return columnar.Value{}, fmt.Errorf("cannot take the logarithm of zero")
		}
		return columnar.FloatValue(t, r), nil
	}
}

func fnMath2(f func(float64, float64) float64) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		return columnar.FloatValue(t, f(a[0].F, a[1].F)), nil
	}
}

func fnSign(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x := a[0].F
	switch {
	case x > 0:
		return columnar.IntValue(t, 1), nil
	case x < 0:
		return columnar.IntValue(t, -1), nil
	}
	return columnar.IntValue(t, 0), nil
}

// fnBest is greatest (dir 1) or least (-1), skipping NULLs.
func fnBest(dir int) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		best := columnar.NullValue(t)
		for _, v := range a {
			if v.Null {
				continue
			}
			if best.Null || columnar.Compare(v, best)*dir > 0 {
				best = v
			}
		}
		best.Type = t
		return best, nil
	}
}

func fnTrunc(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.FloatValue(t, math.Trunc(a[0].F)), nil
}

// fnTruncDigits truncates toward zero, keeping n digits after the point:
// a DECIMAL's scaled integer or an integer loses its low digits, a float
// is scaled, truncated and scaled back.
func fnTruncDigits(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	v, n := a[0], a[1].I
	switch {
	case v.Type.Wide():
		return wideRounding("trunc")(a, t) // kernel_wide.go
	case v.Type.Phys() == columnar.PhysFloat:
		p := math.Pow(10, float64(n))
		return columnar.FloatValue(t, math.Trunc(v.F*p)/p), nil
	case v.Type.Phys() == columnar.PhysInt:
		drop := -n
		if v.Type.ID == columnar.Decimal {
			drop += int64(v.Type.Scale)
		}
		if drop <= 0 {
			return columnar.IntValue(t, v.I), nil
		}
		if drop >= int64(len(pow10)) {
			return columnar.IntValue(t, 0), nil
		}
		return columnar.IntValue(t, v.I/pow10[drop]*pow10[drop]), nil
	}
	return columnar.Value{}, fmt.Errorf("trunc: cannot truncate %s", v.Type)
}

// fnFormatBytes renders a byte count in the largest unit it reaches;
// below one unit it is "N bytes".
func fnFormatBytes(base float64, units []string) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		n := a[0].I
		x := math.Abs(float64(n))
		if x < base {
			if n == 1 || n == -1 {
				return columnar.StringValue(fmt.Sprintf("%d byte", n)), nil
			}
			return columnar.StringValue(fmt.Sprintf("%d bytes", n)), nil
		}
		u := 0
		for x /= base; x >= base && u+1 < len(units); u++ {
			x /= base
		}
		// One decimal, truncated (1023.97 KiB is "1023.9 KiB"), as DuckDB.
		x = math.Trunc(x*10) / 10
		if n < 0 {
			x = -x
		}
		return columnar.StringValue(fmt.Sprintf("%.1f %s", x, units[u])), nil
	}
}

// fnGamma is Γ(x) (nan at the negative integers, inf past the float
// range); Γ(0) is DuckDB's out-of-range error.
func fnGamma(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].F == 0 {
		return columnar.Value{}, fmt.Errorf("cannot take gamma of zero")
	}
	return columnar.FloatValue(t, math.Gamma(a[0].F)), nil
}

// fnLgamma is log|Γ(x)| (inf at the negative integers); x = 0 is DuckDB's
// out-of-range error.
func fnLgamma(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].F == 0 {
		return columnar.Value{}, fmt.Errorf("cannot take log gamma of zero")
	}
	r, _ := math.Lgamma(a[0].F)
	return columnar.FloatValue(t, r), nil
}

// fnBinom is the binomial coefficient n choose k as a HUGEINT (DuckDB's
// current binom; 0 when k > n); past 128 bits, or for a negative
// argument, an error as in DuckDB.
func fnBinom(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	n, k := a[0].I, a[1].I
	if n < 0 || k < 0 {
		return columnar.Value{}, fmt.Errorf("binom with negative input is undefined")
	}
	r := new(big.Int)
	if k <= n {
		r.Binomial(n, k)
	}
	v, ok := columnar.WideFromBig(t, r)
	if !ok {
		return columnar.Value{}, fmt.Errorf("binom(%d, %d): Value out of range for HUGEINT", n, k)
	}
	return v, nil
}
