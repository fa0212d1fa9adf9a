package executor

import (
	"math"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestWideSum: a SUM typed HUGEINT over BIGINTs adds in int64s until a
// group overflows, then in 128 bits, exactly, for every group; DISTINCT
// counts a value once per group.
func TestWideSum(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		// a: 2·(2^63-1) + 5 = 18446744073709551619 (overflows int64);
		// b: -2^63 - 1 = -9223372036854775809; c: 1 + 2 = 3 (never
		// overflows, but moves to 128 bits with the others); d: NULLs only.
		src := grouped(n, columnar.TInt64, "a", math.MaxInt64, "c", 1, "b", math.MinInt64, "a", math.MaxInt64,
			"d", nil, "b", -1, "c", 2, "a", 5)
		got := holistic(t, src,
			AggSpec{Kind: AggSum, Type: columnar.THugeint},
			AggSpec{Kind: AggSum, Type: columnar.THugeint, Distinct: true})
		// DISTINCT: a = 2^63-1 + 5 = 9223372036854775812.
		checkRows(t, got, []string{
			"a|18446744073709551619|9223372036854775812",
			"b|-9223372036854775809|-9223372036854775809",
			"c|3|3",
			"d|NULL|NULL",
		})

		// Without an overflow the int64 lanes give the answer.
		src = grouped(n, columnar.TInt64, "x", 40, "x", 2, "y", -7)
		checkRows(t, holistic(t, src, AggSpec{Kind: AggSum, Type: columnar.THugeint}), []string{"x|42", "y|-7"})

		// DECIMAL(18,2) to DECIMAL(38,2): 3 · 9999999999999999.99 =
		// 29999999999999999.97, past int64's 2^63 unscaled.
		dec := columnar.DecimalType(18, 2)
		src = grouped(n, dec, "m", 999999999999999999, "m", 999999999999999999, "m", 999999999999999999)
		checkRows(t, holistic(t, src, AggSpec{Kind: AggSum, Type: columnar.DecimalType(38, 2)}), []string{"m|29999999999999999.97"})
	})
}

// TestWideSumOverflow: past 128 bits the SUM is an error.
func TestWideSumOverflow(t *testing.T) {
	src := grouped(1024, columnar.THugeint,
		"a", columnar.WideValue(columnar.THugeint, columnar.Int128{Hi: math.MaxInt64, Lo: math.MaxUint64}),
		"a", columnar.WideValue(columnar.THugeint, columnar.Int128Of(1)))
	x := ColumnExpr(1, src.types[1])
	err := drainErr(&HashAgg{Input: src, Groups: []Expr{ColumnExpr(0, columnar.TVarchar)},
		Aggs: []AggSpec{{Kind: AggSum, Arg: x, Type: columnar.THugeint}}})
	if err == nil || !strings.Contains(err.Error(), "overflow in SUM of HUGEINT") {
		t.Fatalf("err = %v, want an overflow", err)
	}
}
