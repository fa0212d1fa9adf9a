package executor

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// grouped is a source of (g VARCHAR, x t) rows: pairs of group name and
// value, nil for a NULL value.
func grouped(n int, t columnar.Type, pairs ...any) *source {
	var rows [][]columnar.Value
	for k := 0; k < len(pairs); k += 2 {
		x := columnar.NullValue(t)
		switch v := pairs[k+1].(type) {
		case int:
			x = columnar.IntValue(t, int64(v))
		case uint64:
			x = columnar.UintValue(v)
		case float64:
			x = columnar.FloatValue(t, v)
		case string:
			x = columnar.Value{Type: t, S: v}
		case columnar.Value:
			x = v
		}
		rows = append(rows, []columnar.Value{str(pairs[k].(string)), x})
	}
	return &source{types: []columnar.Type{columnar.TVarchar, t}, rows: rows, n: n}
}

// holistic aggregates x of grouped rows by g, in group order.
func holistic(t *testing.T, src *source, aggs ...AggSpec) []string {
	t.Helper()
	x := ColumnExpr(1, src.types[1])
	for i := range aggs {
		aggs[i].Arg = x
		if aggs[i].Type.ID == columnar.Null {
			aggs[i].Type = src.types[1]
		}
	}
	got := drain(t, &HashAgg{Input: src, Groups: []Expr{ColumnExpr(0, columnar.TVarchar)}, Aggs: aggs})
	slices.Sort(got)
	return got
}

func checkRows(t *testing.T, got, want []string) {
	t.Helper()
	if !equalStrings(got, want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
}

func TestQuantilesOfInts(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		// a = 3 1 4 NULL 2 (sorted 1 2 3 4), b = 7, c = only NULLs.
		src := grouped(n, columnar.TInt64, "a", 3, "a", 1, "b", 7, "a", 4, "c", nil, "a", nil, "a", 2, "c", nil)
		got := holistic(t, src,
			AggSpec{Kind: AggMedian, Type: columnar.TFloat64},
			AggSpec{Kind: AggQuantileCont, Type: columnar.TFloat64, Param: f64(0.25)},
			AggSpec{Kind: AggQuantileDisc, Param: f64(0.5)},
			AggSpec{Kind: AggQuantileDisc, Param: f64(0.25)},
			AggSpec{Kind: AggQuantileDisc, Param: f64(0.75)},
			AggSpec{Kind: AggQuantileDisc, Param: f64(0)},
			AggSpec{Kind: AggQuantileDisc, Param: f64(1)},
			AggSpec{Kind: AggMode},
		)
		// a: median (2+3)/2; quantile_cont(.25) at rank .75: 1 + .75·(2-1);
		// quantile_disc picks rank ⌈4q⌉-1: q .5 → 1 (2), .25 → 0 (1),
		// .75 → 2 (3), 0 → 0 (1), 1 → 3 (4); mode: all once, 3 came first.
		checkRows(t, got, []string{
			"a|2.5|1.75|2|1|3|1|4|3",
			"b|7.0|7.0|7|7|7|7|7|7",
			"c|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL",
		})
	})
}

func TestQuantilesOfDecimalsAndDates(t *testing.T) {
	dec := columnar.DecimalType(10, 2)
	runSizes(t, func(t *testing.T, n int) {
		// 10.00 1.50 0.75 2.25: sorted 0.75 1.50 2.25 10.00.
		src := grouped(n, dec, "a", 1000, "a", 150, "a", 75, "a", 225, "a", nil)
		got := holistic(t, src,
			AggSpec{Kind: AggMedian, Type: columnar.TFloat64},
			AggSpec{Kind: AggQuantileCont, Type: columnar.TFloat64, Param: f64(0.9)},
			AggSpec{Kind: AggQuantileDisc, Param: f64(0.5)},
			AggSpec{Kind: AggMode},
		)
		// median (1.5+2.25)/2 = 1.875; .9 at rank 2.7: 2.25 + .7·7.75 = 7.675
		// (in doubles 0.9·3 = 2.7000000000000002, so 7.675000000000002, as
		// Python computes it); quantile_disc(.5) rank 1: 1.50.
		checkRows(t, got, []string{"a|1.875|7.675000000000002|1.50|10.00"})

		// Days 19725 (2024-01-03), 19724 (2024-01-02), 19783 (2024-03-01),
		// 19724: rank 1 of 4 and the twice-seen day are 2024-01-02.
		src = grouped(n, columnar.TDate, "d", 19725, "d", 19724, "d", 19783, "d", 19724)
		got = holistic(t, src,
			AggSpec{Kind: AggQuantileDisc, Param: f64(0.5)},
			AggSpec{Kind: AggQuantileDisc, Param: f64(0.9)},
			AggSpec{Kind: AggMode},
		)
		checkRows(t, got, []string{"d|2024-01-02|2024-03-01|2024-01-02"})
	})
}

// TestModeOfLists: mode of a nested type gives back the value itself (it
// gave empty lists: the count is keyed by the value's text).
func TestModeOfLists(t *testing.T) {
	lt := columnar.ListOf(columnar.TVarchar)
	list := func(xs ...string) columnar.Value {
		v := columnar.Value{Type: lt}
		for _, x := range xs {
			v.Elems = append(v.Elems, str(x))
		}
		return v
	}
	runSizes(t, func(t *testing.T, n int) {
		// a: [x y] twice, [z] three times; b: [] once, NULL skipped; c: NULLs only.
		src := grouped(n, lt, "a", list("x", "y"), "a", list("z"), "b", list(), "a", list("z"),
			"c", nil, "a", list("x", "y"), "b", nil, "a", list("z"))
		got := holistic(t, src, AggSpec{Kind: AggMode})
		checkRows(t, got, []string{"a|[z]", "b|[]", "c|NULL"})
	})
}

func TestQuantilesOfFloatsAndUints(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		// NaN sorts last (DuckDB); -0 and 0 are one value for mode.
		src := grouped(n, columnar.TFloat64, "f", 3.0, "f", math.NaN(), "f", 1.0, "f", -0.0, "f", 0.0, "f", 3.0)
		got := holistic(t, src,
			AggSpec{Kind: AggMedian, Type: columnar.TFloat64},
			AggSpec{Kind: AggQuantileDisc, Param: f64(1)},
			AggSpec{Kind: AggQuantileDisc, Param: f64(0.5)},
			AggSpec{Kind: AggMode},
		)
		// sorted -0 0 1 3 3 NaN: median (1+3)/2; rank ⌈3⌉-1 = 2 is 1;
		// 3 and 0 both twice, 3 seen first.
		checkRows(t, got, []string{"f|2.0|nan|1.0|3.0"})

		big := uint64(1) << 63
		src = grouped(n, columnar.TUint64, "u", big+4, "u", uint64(5), "u", big+2)
		got = holistic(t, src,
			AggSpec{Kind: AggMedian, Type: columnar.TFloat64},
			AggSpec{Kind: AggQuantileDisc, Param: f64(0.5)},
			AggSpec{Kind: AggQuantileDisc, Param: f64(1)},
		)
		// Unsigned order: 5 < 2^63+2 < 2^63+4; the median as a double.
		checkRows(t, got, []string{"u|9.223372036854776e+18|9223372036854775810|9223372036854775812"})
	})
}

func TestStringHolistics(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		src := grouped(n, columnar.TVarchar, "a", "pear", "a", "fig", "a", nil, "a", "apple", "a", "fig", "a", "", "b", nil)
		got := holistic(t, src,
			AggSpec{Kind: AggStringAgg, Param: str("+")},
			AggSpec{Kind: AggQuantileDisc, Param: f64(0.5)},
			AggSpec{Kind: AggQuantileDisc, Param: f64(1)},
			AggSpec{Kind: AggMode},
			AggSpec{Kind: AggMode, Distinct: true},
		)
		// Input order, NULL skipped, the empty string kept; sorted
		// "" apple fig fig pear: rank ⌈2.5⌉-1 = 2 is fig; fig twice;
		// DISTINCT: each once, pear first.
		checkRows(t, got, []string{"a|pear+fig+apple+fig+|fig|pear|fig|pear", "b|NULL|NULL|NULL|NULL|NULL"})
	})
}

func TestDiscreteIndex(t *testing.T) {
	for _, c := range []struct {
		n    int
		q    float64
		want int
	}{{4, 0.5, 1}, {4, 0.25, 0}, {4, 0.26, 1}, {4, 0, 0}, {4, 1, 3}, {5, 0.5, 2}, {1, 0.9, 0}, {10, 0.1, 0}, {10, 0.9, 8}} {
		if got := discreteIndex(c.n, c.q); got != c.want {
			t.Errorf("discreteIndex(%d, %v) = %d, want %d", c.n, c.q, got, c.want)
		}
	}
}

// TestNthAndNext compares the selection with a sorted copy, on sizes
// around the small-range cutoff and on inputs with many equal values.
func TestNthAndNext(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 16, 17, 100, 1000, 5000} {
		for _, span := range []int64{3, 1 << 40} {
			xs := make([]int64, n)
			for i := range xs {
				xs[i] = r.Int64N(span)
			}
			if span == 3 && n > 100 {
				slices.Sort(xs) // already sorted: the median-of-three case
			}
			ref := slices.Clone(xs)
			slices.Sort(ref)
			for _, k := range []int{0, n / 3, n / 2, n - 1} {
				a, b := nthAndNext(slices.Clone(xs), k, cmp.Compare[int64])
				wantB := ref[min(k+1, n-1)]
				if a != ref[k] || b != wantB {
					t.Fatalf("n=%d span=%d k=%d: got %d,%d want %d,%d", n, span, k, a, b, ref[k], wantB)
				}
			}
		}
	}
}

func TestFrameValueAgg(t *testing.T) {
	vs := []columnar.Value{i64(5), i64(2), i64(9), i64(2), i64(5)}
	// sorted 2 2 5 5 9: rank ⌈5q⌉-1 gives 2 at q .4, 5 at .5, 9 at 1
	for q, want := range map[float64]int64{0.4: 2, 0.5: 5, 1: 9, 0: 2} {
		if got := frameValueAgg("quantile_disc", vs, q); got.I != want {
			t.Errorf("quantile_disc(%v) = %v, want %d", q, got, want)
		}
	}
	// 5 and 2 twice each: 5 came first
	if got := frameValueAgg("mode", vs, 0); got.I != 5 {
		t.Errorf("mode = %v, want 5", got)
	}
	if got := frameValueAgg("mode", vs[1:], 0); got.I != 2 {
		t.Errorf("mode of 2 9 2 5 = %v, want 2", got)
	}
}

// TestSharedQuantiles runs quantiles of one column side by side (they
// share one value list) with string_agg and a DISTINCT quantile (they do
// not), so that one state's selection cannot disturb another's answer.
func TestSharedQuantiles(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		// a = 5 1 4 1 3 (sorted 1 1 3 4 5, distinct 1 3 4 5)
		src := grouped(n, columnar.TInt64, "a", 5, "a", 1, "a", 4, "a", 1, "a", 3)
		x := ColumnExpr(1, columnar.TInt64)
		specs := []AggSpec{
			{Kind: AggQuantileDisc, Arg: x, Type: columnar.TInt64, Param: f64(1)},
			{Kind: AggMedian, Arg: x, Type: columnar.TFloat64},
			{Kind: AggStringAgg, Arg: newCastExpr(x, columnar.TVarchar, false), Type: columnar.TVarchar, Param: str(",")},
			{Kind: AggQuantileCont, Arg: x, Type: columnar.TFloat64, Param: f64(0.25)},
			{Kind: AggMedian, Arg: x, Type: columnar.TFloat64, Distinct: true},
			{Kind: AggQuantileDisc, Arg: x, Type: columnar.TInt64, Param: f64(0)},
		}
		agg := &HashAgg{Input: src, Groups: []Expr{ColumnExpr(0, columnar.TVarchar)}, Aggs: specs}
		var shared []bool // per state, as the output was read (the states go at its end)
		got := drainChecked(t, &closeLater{Operator: agg, t: t}, func(*columnar.Batch) {
			shared = shared[:0]
			for _, s := range agg.states {
				shared = append(shared, s.valsFrom != nil)
			}
		})
		// max 5; median 3; input order; rank .25·4 = 1: 1; distinct
		// median (3+4)/2; min 1
		checkRows(t, got, []string{"a|5|3.0|5,1,4,1,3|1.0|3.5|1"})
		for i, want := range []bool{false, true, false, true, false, true} {
			if shared[i] != want {
				t.Errorf("state %d shares values: %v, want %v", i, shared[i], want)
			}
		}
	})
}
