package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The aggregate functions, for duckdb_functions() and completion. The
// binder types them with its own code (sql/bind_agg*.go) and the
// aggregation operators compute them (aggstate*.go), so their overloads
// describe them and carry no kernel.
func init() {
	x := param{"x", function.Any}
	agg := func(name, desc string, examples []string, ret columnar.Type, ps ...param) *function.Set {
		o := over(ret, nil, ps...)
		if ret.ID == columnar.Null { // columnar.Type{}: no aggregate returns NULL
			o.SameAs = 1 // the type of the first argument
		}
		s := scalar("aggregate", name, desc, examples, o)
		s.Kind, s.CustomBind = function.Aggregate, true
		return s
	}
	d, i64 := columnar.TFloat64, columnar.TInt64
	q := param{"q", function.Double}
	function.Register(
		agg("count", "The number of rows (count(*)) or of non-NULL values of x", ex("count(*)", "count(1)"), i64, x),
		agg("sum", "The sum of the non-NULL values", ex("sum(1)"), columnar.Type{}, param{"x", function.Number}),
		aka(agg("avg", "The average of the non-NULL values", ex("avg(1)"), d, param{"x", function.Number}), "mean"),
		agg("min", "The smallest non-NULL value", ex("min(1)"), columnar.Type{}, x),
		agg("max", "The largest non-NULL value", ex("max(1)"), columnar.Type{}, x),
		agg("median", "The middle value (the average of the two middle ones for numbers)", ex("median(1)"), columnar.Type{}, x),
		agg("quantile_cont", "The interpolated q-quantile (0 ≤ q ≤ 1), or the list of them for a list of fractions", ex("quantile_cont(1, 0.5)", "quantile_cont(1, [0.25, 0.75])"), columnar.Type{}, x, q),
		aka(agg("quantile_disc", "The q-quantile, one of the values, or the list of them for a list of fractions", ex("quantile_disc(1, 0.5)"), columnar.Type{}, x, q), "quantile"),
		agg("approx_quantile", "An estimate of the q-quantile (a t-digest), or the list of them for a list of fractions", ex("approx_quantile(1, 0.5)"), columnar.Type{}, x, q),
		agg("reservoir_quantile", "The value of rank ⌊(n-1)·q⌋ (DuckDB ranks a sample of size values, b2sql every value), or the list of them for a list of fractions", ex("reservoir_quantile(1, 0.5)"), columnar.Type{}, x, q, param{"size", function.Any}),
		agg("approx_top_k", "The k most frequent values, most frequent first (counted exactly)", ex("approx_top_k(1, 3)"), columnar.Type{}, x, param{"k", function.Any}),
		agg("lttb", "The points (x, y) Largest Triangle Three Buckets keeps, at most n, in input order", ex("lttb(1.0, 2.0, 3)"), columnar.Type{}, param{"x", function.Any}, param{"y", function.Any}, param{"n", function.Any}),
		aka(agg("var_samp", "The sample variance", ex("var_samp(1)"), d, param{"x", function.Double}), "variance"),
		agg("var_pop", "The population variance", ex("var_pop(1)"), d, param{"x", function.Double}),
		aka(agg("stddev_samp", "The sample standard deviation", ex("stddev_samp(1)"), d, param{"x", function.Double}), "stddev"),
		agg("stddev_pop", "The population standard deviation", ex("stddev_pop(1)"), d, param{"x", function.Double}),
		aka(agg("string_agg", "The non-NULL strings joined by the separator (',' by default)", ex("string_agg('a', '-')"), columnar.TVarchar,
			param{"string", function.Str}, param{"separator", function.Str}), "group_concat", "listagg"),
		agg("approx_count_distinct", "An estimate of the number of distinct values (HyperLogLog)", ex("approx_count_distinct(1)"), i64, x),
		agg("mode", "The most frequent value", ex("mode(1)"), columnar.Type{}, x),
		agg("bit_and", "The bitwise AND of the non-NULL integers or bitstrings", ex("bit_and(6)"), columnar.Type{}, x),
		agg("bit_or", "The bitwise OR of the non-NULL integers or bitstrings", ex("bit_or(6)"), columnar.Type{}, x),
		agg("bit_xor", "The bitwise XOR of the non-NULL integers or bitstrings", ex("bit_xor(6)"), columnar.Type{}, x),
		agg("bitstring_agg", "A bitstring with a bit set for each distinct integer, from min to max (the column's statistics when not given)", ex("bitstring_agg(2, 0, 5)"),
			columnar.TBit, param{"x", function.Integer}, param{"min", function.Any}, param{"max", function.Any}),
		agg("decimal_average", "The average of DECIMALs as a DECIMAL of the same type, rounded half to even", ex("decimal_average(1.5)"), columnar.Type{}, x),
		agg("histogram", "A MAP of each distinct value (or bin boundary, with bins) to its count", ex("histogram(1)", "histogram(1, [0, 10])"), columnar.Type{}, x, param{"bins", function.Any}),
		agg("histogram_exact", "A MAP of each bin boundary to the count of values equal to it (the others in the type's largest value)", ex("histogram_exact(1, [0, 1])"), columnar.Type{}, x, param{"bins", function.Any}),
		aka(agg("array_agg", "The values as a list", ex("array_agg(1)"), columnar.Type{}, x), "list"),
		agg("bool_and", "Whether every non-NULL value is true", ex("bool_and(true)"), columnar.TBool, param{"b", function.Any}),
		agg("bool_or", "Whether some non-NULL value is true", ex("bool_or(true)"), columnar.TBool, param{"b", function.Any}),
		aka(agg("count_if", "The number of rows where the condition is true", ex("count_if(true)"), i64, param{"condition", function.Any}), "countif"),
		agg("any_value", "The first non-NULL value", ex("any_value(1)"), columnar.Type{}, x),
		aka(agg("first", "The first row's value, NULL included", ex("first(1)"), columnar.Type{}, x), "arbitrary"),
		agg("last", "The last row's value, NULL included", ex("last(1)"), columnar.Type{}, x),
		aka(agg("arg_max", "The arg of the row with the largest val", ex("arg_max('a', 1)"), columnar.Type{}, param{"arg", function.Any}, param{"val", function.Any}), "argmax", "max_by"),
		aka(agg("arg_min", "The arg of the row with the smallest val", ex("arg_min('a', 1)"), columnar.Type{}, param{"arg", function.Any}, param{"val", function.Any}), "argmin", "min_by"),
		agg("arg_max_null", "The arg of the row with the largest val, NULL or not", ex("arg_max_null('a', 1)"), columnar.Type{}, param{"arg", function.Any}, param{"val", function.Any}),
		agg("arg_min_null", "The arg of the row with the smallest val, NULL or not", ex("arg_min_null('a', 1)"), columnar.Type{}, param{"arg", function.Any}, param{"val", function.Any}),
		agg("skewness", "The sample skewness", ex("skewness(1)"), d, param{"x", function.Double}),
		agg("kurtosis", "The sample excess kurtosis", ex("kurtosis(1)"), d, param{"x", function.Double}),
		agg("kurtosis_pop", "The population excess kurtosis", ex("kurtosis_pop(1)"), d, param{"x", function.Double}),
		agg("entropy", "The base-2 entropy of the values' frequencies", ex("entropy(1)"), d, x),
		agg("product", "The product of the non-NULL values", ex("product(2)"), d, param{"x", function.Double}),
		aka(agg("geomean", "The geometric mean", ex("geomean(2)"), d, param{"x", function.Double}), "geometric_mean"),
		agg("sem", "The standard error of the mean", ex("sem(1)"), d, param{"x", function.Double}),
		aka(agg("fsum", "The sum with error compensation (Kahan-Babuska)", ex("fsum(0.1)"), d, param{"x", function.Double}), "sumkahan", "kahan_sum"),
		agg("favg", "The average with error compensation", ex("favg(0.1)"), d, param{"x", function.Double}),
		agg("mad", "The median absolute deviation", ex("mad(1)"), columnar.Type{}, param{"x", function.Number}),
	)
	y2, x2 := param{"y", function.Double}, param{"x", function.Double}
	for _, p := range []struct{ name, desc string }{
		{"covar_pop", "The population covariance of y and x"}, {"covar_samp", "The sample covariance of y and x"},
		{"corr", "The correlation coefficient of y and x"}, {"regr_count", "The number of rows where y and x are both non-NULL"},
		{"regr_avgx", "The average of x over the rows where y is non-NULL too"}, {"regr_avgy", "The average of y over the rows where x is non-NULL too"},
		{"regr_slope", "The slope of the least-squares line of y over x"}, {"regr_intercept", "The y-intercept of the least-squares line of y over x"},
		{"regr_r2", "The coefficient of determination of the least-squares line"}, {"regr_sxx", "The sum of squared deviations of x"},
		{"regr_syy", "The sum of squared deviations of y"}, {"regr_sxy", "The sum of the products of the deviations of y and x"},
	} {
		ret := d
		if p.name == "regr_count" {
			ret = columnar.TUint32
		}
		function.Register(agg(p.name, p.desc, ex(p.name+"(2, 1)"), ret, y2, x2))
	}
}
