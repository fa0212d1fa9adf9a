package executor

import (
	"math/big"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// decimal_division(a, b [, scale]) and decimal_average(x), DuckDB's exact
// DECIMAL division and average (DuckDB's current tests; DuckDB 1.5 has
// neither). The binder types them (sql bind_func_decimal.go):
//
//	decimal_division(a, b)          DECIMAL(p1−s1+s2+s, s), s = max(6, s1+p2+1): a/b truncated toward zero
//	decimal_division(a, b, scale)   the same with s = scale (0..38)
//	decimal_avg(sum, n)             sum/n at x's scale, half to even (decimal_average's last step)
func init() {
	function.Register(
		customBind(scalar("math", "decimal_division", "a / b of two DECIMALs as a DECIMAL, truncated toward zero at the given or DuckDB's scale", ex("decimal_division(10.00, 4.00)", "decimal_division(12.34, 3.5, 2)"),
			function.Overload{Args: []function.Arg{function.Number, function.Number}, Params: []string{"a", "b"}, Kernel: rows(fnDecimalDivision)},
			function.Overload{Args: []function.Arg{function.Number, function.Number, function.Integer}, Params: []string{"a", "b", "scale"}, Kernel: rows(fnDecimalDivision)})),
		internalRows("aggregate", "decimal_avg", "an exact DECIMAL sum over a count at the argument's scale, half to even (decimal_average)", fnDecimalAvg),
	)
}

// fnDecimalDivision is A·10^(t.s+s2−s1) / B (A·10^k / (B·10^−k) for a
// negative exponent) of the unscaled operands, truncated toward zero.
func fnDecimalDivision(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x, xs := exactNum(a[0])
	y, ys := exactNum(a[1])
	if y.Sign() == 0 {
		return columnar.Value{}, errorf("decimal_division: division by zero")
	}
	ts := int(t.Scale)
	if e := ts + ys - xs; e >= 0 {
		x = new(big.Int).Mul(x, columnar.Pow10Big(e))
	} else {
		y = new(big.Int).Mul(y, columnar.Pow10Big(-e))
	}
	return wideResult(new(big.Int).Quo(x, y), ts, t, "division")
}

// fnDecimalAvg divides an exact sum by the count, rounding half to even
// (DuckDB: 3 and 4 average to 4, 2 and 3 to 2).
func fnDecimalAvg(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	sum, s := exactNum(a[0])
	n := big.NewInt(a[1].I)
	if n.Sign() == 0 {
		return columnar.NullValue(t), nil
	}
	q, r := new(big.Int).QuoRem(sum, n, new(big.Int))
	twice := new(big.Int).Lsh(new(big.Int).Abs(r), 1)
	if c := twice.Cmp(n); c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, big.NewInt(int64(sum.Sign())))
	}
	return wideResult(q, s, t, "AVG")
}
