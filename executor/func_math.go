package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The math functions. DOUBLE in and out unless noted; a result outside a
// function's domain is an error, as in DuckDB (asin(2), ln(0), cot(0)).
func init() {
	d, i64 := columnar.TFloat64, columnar.TInt64
	x, y := param{"x", function.Double}, param{"y", function.Double}
	n := param{"x", function.Number}
	f1 := func(name, desc, example string, f rowFunc) *function.Set {
		return scalar("math", name, desc, ex(example), over(d, rows(f), x))
	}
	test := func(name, desc, example string, f func(float64) bool) *function.Set {
		return scalar("math", name, desc, ex(example), over(columnar.TBool, rows(fnFloatTest(f)), x))
	}
	round := func(ts []columnar.Type, _ []*columnar.Value, _ columnar.Type) (function.Kernel, error) {
		if ts[0].Wide() {
			return function.Kernel(rowKernel(wideRounding("round"), ts[0], true)), nil // kernel_wide.go
		}
		return function.Kernel(roundKernel(ts[0], len(ts) > 1)), nil
	}
	// orWide uses the 128-bit kernel (kernel_wide.go) for HUGEINT and
	// DECIMAL(19..38), k otherwise.
	orWide := func(fn string, k func(t columnar.Type) kernel) func(t columnar.Type) kernel {
		return func(t columnar.Type) kernel {
			if t.Wide() {
				return rowKernel(wideRounding(fn), t, true)
			}
			return k(t)
		}
	}
	function.Register(
		scalar("math", "abs", "The absolute value of x", ex("abs(-17.4)"), sameAs(over(columnar.Type{}, byType(orWide("abs", absKernel)), n), 1)),
		customBind(scalar("math", "floor", "The largest integer not above x", ex("floor(17.4)"), sameAs(over(columnar.Type{}, byType(orWide("floor", floorKernel)), n), 1))),
		customBind(aka(scalar("math", "ceil", "The smallest integer not below x", ex("ceil(17.4)"), sameAs(over(columnar.Type{}, byType(orWide("ceil", ceilKernel)), n), 1)), "ceiling")),
		customBind(scalar("math", "round", "x rounded half away from zero to digits decimal places (0 by default; negative: left of the point)",
			ex("round(17.45, 1)", "round(1745, -2)"),
			sameAs(over(columnar.Type{}, round, n), 1), sameAs(over(columnar.Type{}, round, n, param{"digits", function.Int32}), 1))),
		customBind(scalar("math", "trunc", "x truncated toward zero, to digits decimal places when given", ex("trunc(-17.4)", "trunc(17.456, 2)"),
			over(d, rows(fnTrunc), x), sameAs(over(columnar.Type{}, nil, n, param{"digits", function.Integer}), 1))),
		internal(scalar("math", "trunc_digits", "trunc(x, digits): toward zero at digits decimal places, keeping x's type", nil,
			sameAs(over(columnar.Type{}, rows(fnTruncDigits), n, param{"digits", function.Integer}), 1))),
		customBind(scalar("math", "bit_count", "The number of bits set in the integer (in its own width) or bitstring", ex("bit_count(7)"),
			bitOverloads("bit_count"), over(columnar.TInt8, rows(fnBitCount), param{"x", function.Integer}))),
		customBind(scalar("math", "pi", "The number π", ex("pi()"), over(d, nil))),
		customBind(scalar("math", "log", "The logarithm of x to base 10, or to base b", ex("log(100)", "log(2, 8)"),
			over(d, nil, x), over(d, nil, param{"b", function.Double}, x))),
		customBind(scalar("math", "mod", "The remainder of x divided by y (%)", ex("mod(17, 5)"), sameAs(over(columnar.Type{}, nil, n, param{"y", function.Number}), 1))),
		customBind(scalar("math", "greatest", "The largest argument; NULLs are skipped", ex("greatest(1, 7, 3)"),
			function.Overload{Params: []string{"value"}, Args: []function.Arg{function.Text}, Variadic: true, SameAs: 1, Kernel: rowsNulls(fnBest(1)), SeesNulls: true})),
		customBind(scalar("math", "least", "The smallest argument; NULLs are skipped", ex("least(1, 7, 3)"),
			function.Overload{Params: []string{"value"}, Args: []function.Arg{function.Text}, Variadic: true, SameAs: 1, Kernel: rowsNulls(fnBest(-1)), SeesNulls: true})),
		scalar("math", "sign", "-1, 0 or 1 by the sign of x", ex("sign(-3.5)"), over(columnar.TInt8, rows(fnSign), x)),
		aka(scalar("math", "power", "x to the power y", ex("power(2, 10)"), over(d, rows(fnMath2(math.Pow)), x, y)), "pow"),
		f1("sqrt", "The square root of x", "sqrt(2)", fnMath1(math.Sqrt)),
		f1("ln", "The natural logarithm of x", "ln(2.718281828459045)", fnMath1(math.Log)),
		f1("log10", "The logarithm of x to base 10", "log10(1000)", fnMath1(math.Log10)),
		f1("log2", "The logarithm of x to base 2 (exact on powers of two)", "log2(8)", fnMath1(math.Log2)),
		f1("exp", "e to the power x", "exp(1)", fnMath1(math.Exp)),
		scalar("math", "binom", "The binomial coefficient n choose k, a HUGEINT", ex("binom(5, 2)"),
			over(columnar.THugeint, rows(fnBinom), param{"n", function.Integer}, param{"k", function.Integer})),
		f1("gamma", "The gamma function of x (nan at the negative integers)", "gamma(5)", fnGamma),
		f1("lgamma", "The natural logarithm of the absolute value of the gamma function of x", "lgamma(5)", fnLgamma),
		f1("sin", "The sine of x (radians)", "sin(1)", fnFloat1(math.Sin)),
		f1("cos", "The cosine of x (radians)", "cos(1)", fnFloat1(math.Cos)),
		f1("tan", "The tangent of x (radians)", "tan(1)", fnFloat1(math.Tan)),
		f1("atan", "The arctangent of x, in radians", "atan(1)", fnFloat1(math.Atan)),
		f1("sinh", "The hyperbolic sine of x", "sinh(1)", fnFloat1(math.Sinh)),
		f1("cosh", "The hyperbolic cosine of x", "cosh(1)", fnFloat1(math.Cosh)),
		f1("tanh", "The hyperbolic tangent of x", "tanh(1)", fnFloat1(math.Tanh)),
		f1("asinh", "The inverse hyperbolic sine of x", "asinh(1)", fnFloat1(math.Asinh)),
		f1("cbrt", "The cube root of x", "cbrt(27)", fnFloat1(math.Cbrt)),
		f1("degrees", "x radians in degrees", "degrees(pi())", fnFloat1(func(x float64) float64 { return x * (180 / math.Pi) })),
		f1("radians", "x degrees in radians", "radians(180)", fnFloat1(func(x float64) float64 { return x * (math.Pi / 180) })),
		f1("asin", "The arcsine of x in [-1, 1], in radians", "asin(0.5)", fnDomain("asin", math.Asin, -1, 1)),
		f1("acos", "The arccosine of x in [-1, 1], in radians", "acos(0.5)", fnDomain("acos", math.Acos, -1, 1)),
		f1("acosh", "The inverse hyperbolic cosine of x ≥ 1", "acosh(2)", fnDomain("acosh", math.Acosh, 1, math.Inf(1))),
		f1("atanh", "The inverse hyperbolic tangent of x in [-1, 1]", "atanh(0.5)", fnDomain("atanh", math.Atanh, -1, 1)),
		f1("cot", "The cotangent of x (radians)", "cot(1)", fnCot),
		f1("even", "x rounded away from zero to the next even integer", "even(2.1)", fnEven),
		scalar("math", "atan2", "The angle of the point (x, y) … in radians: atan2(y, x)", ex("atan2(1, 1)"), over(d, rows(fnMath2(math.Atan2)), y, x)),
		aka(scalar("math", "round_even", "x rounded to digits decimal places, ties to even", ex("round_even(2.5, 0)"),
			over(d, rows(fnRoundEven), x, param{"digits", function.BigInt})), "roundbankers"),
		test("isnan", "Whether x is NaN", "isnan('NaN'::DOUBLE)", math.IsNaN),
		test("isinf", "Whether x is infinite", "isinf('inf'::DOUBLE)", func(x float64) bool { return math.IsInf(x, 0) }),
		test("isfinite", "Whether x is neither infinite nor NaN", "isfinite(1.5)", func(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }),
		test("signbit", "Whether the sign bit of x is set (true for -0.0)", "signbit(-0.0)", math.Signbit),
		aka(scalar("math", "gcd", "The greatest common divisor of x and y", ex("gcd(12, 18)"),
			over(i64, rows(fnGCD), param{"x", function.BigInt}, param{"y", function.BigInt})), "greatest_common_divisor"),
		aka(scalar("math", "lcm", "The least common multiple of x and y; overflow is an error", ex("lcm(4, 6)"),
			over(i64, rows(fnLCM), param{"x", function.BigInt}, param{"y", function.BigInt})), "least_common_multiple"),
		scalar("math", "factorial", "x! for 0 ≤ x ≤ 20", ex("factorial(5)"), over(i64, rows(fnFactorial), param{"x", function.BigInt})),
		// fmod and fdiv bind apart: ieee_floating_point_ops decides a
		// zero divisor's answer (sql/bind_ieee.go).
		customBind(scalar("math", "fmod", "x - y·floor(x/y)", ex("fmod(7, 3)"), over(d, rows(fnMath2(func(x, y float64) float64 { return x - y*math.Floor(x/y) })), x, y))),
		customBind(scalar("math", "fdiv", "floor(x / y)", ex("fdiv(7, 2)"), over(d, rows(fnMath2(func(x, y float64) float64 { return math.Floor(x / y) })), x, y))),
		scalar("math", "nextafter", "The next DOUBLE after x toward y", ex("nextafter(1, 2)"), over(d, rows(fnMath2(math.Nextafter)), x, y)),
		aka(scalar("math", "format_bytes", "The number of bytes in 1024-based units (KiB, MiB, …)", ex("format_bytes(1536)"),
			over(columnar.TVarchar, rows(fnFormatBytes(1024, []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"})), param{"bytes", function.BigInt})), "formatreadablesize"),
		scalar("math", "parse_formatted_bytes", "The bytes a size such as '1.5 GB' or '2 MiB' stands for (1000- or 1024-based units, as memory_limit reads them)",
			ex("parse_formatted_bytes('1.5 KiB')"), over(columnar.TUint64, rows(fnParseFormattedBytes), param{"text", function.Str})),
		scalar("math", "formatreadabledecimalsize", "The number of bytes in 1000-based units (kB, MB, …)", ex("formatReadableDecimalSize(1500)"),
			over(columnar.TVarchar, rows(fnFormatBytes(1000, []string{"kB", "MB", "GB", "TB", "PB", "EB"})), param{"bytes", function.BigInt})),
		customBind(volatile(scalar("math", "random", "A random DOUBLE in [0, 1), new for every row; setseed fixes the sequence", ex("random()"), over(d, randomFactory)))),
		customBind(volatile(scalar("math", "setseed", "Sets the seed of the session's random(): the next statements' values repeat (-1 ≤ x ≤ 1)", ex("setseed(0.42)"),
			over(columnar.TNull, setseedFactory, param{"x", function.Double})))),
		// The binder's forms of random() and setseed(x), which name the
		// session's engine by a constant token (random.go).
		volatile(internal(scalar("math", "random_session", "random() of the session whose engine token is the argument", nil,
			over(d, randomFactory, param{"token", function.BigInt})))),
		volatile(internal(scalar("math", "setseed_session", "setseed(x) of the session whose engine token is the second argument", nil,
			over(columnar.TNull, setseedFactory, param{"x", function.Double}, param{"token", function.BigInt})))),
	)
}

// volatile marks s as giving a new value for every row.
func volatile(s *function.Set) *function.Set {
	s.Stability = function.Volatile
	return s
}
