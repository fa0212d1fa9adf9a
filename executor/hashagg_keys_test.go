package executor

import (
	"context"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// TestHashAggCompositeKeys groups by (VARCHAR, BIGINT) with NULLs in both
// keys: NULLs form their own groups, per column.
func TestHashAggCompositeKeys(t *testing.T) {
	s, n64 := null(columnar.TVarchar), null(columnar.TInt64)
	rows := [][]columnar.Value{
		{str("a"), i64(1), i64(10)},
		{str("b"), i64(1), i64(20)},
		{str("a"), i64(1), i64(30)},
		{s, i64(1), i64(40)},
		{str("a"), n64, i64(50)},
		{s, n64, i64(60)},
		{s, i64(1), i64(70)},
		{str("a"), i64(2), i64(80)},
		{str("a"), n64, i64(90)},
		{str("a longer string than sixteen bytes"), i64(-1), i64(100)},
		{str("a longer string than sixteen bytes"), i64(-1), i64(110)},
	}
	types := []columnar.Type{columnar.TVarchar, columnar.TInt64, columnar.TInt64}
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input:  &source{types: types, rows: rows, n: n},
			Groups: []Expr{ColumnExpr(0, columnar.TVarchar), ColumnExpr(1, columnar.TInt64)},
			Aggs: []AggSpec{
				{Kind: AggCountStar, Type: columnar.TInt64},
				{Kind: AggSum, Arg: ColumnExpr(2, columnar.TInt64), Type: columnar.TInt64},
			},
		}
		got := drainOpen(t, agg)
		slices.Sort(got)
		want := []string{
			"NULL|1|2|110", "NULL|NULL|1|60",
			"a longer string than sixteen bytes|-1|2|210",
			"a|1|2|40", "a|2|1|80", "a|NULL|2|140",
			"b|1|1|20",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got  %v\nwant %v", got, want)
		}
	})
}

// TestHashAggFloatKey: -0 and 0 are one group, every NaN another (DuckDB).
func TestHashAggFloatKey(t *testing.T) {
	rows := [][]columnar.Value{
		{f64(0)}, {f64(math.Copysign(0, -1))}, {f64(math.NaN())}, {f64(-math.NaN())}, {f64(1.5)}, {null(columnar.TFloat64)}, {f64(1.5)},
	}
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input:  &source{types: []columnar.Type{columnar.TFloat64}, rows: rows, n: n},
			Groups: []Expr{ColumnExpr(0, columnar.TFloat64)},
			Aggs:   []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}},
		}
		got := drainOpen(t, agg)
		slices.Sort(got)
		want := []string{"0.0|2", "1.5|2", "NULL|1", "nan|2"}
		if !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

// coded emits batches whose first column is dictionary-coded, each batch
// with its own dictionary (as Parquet row groups have), and whose second
// is a plain integer.
type coded struct {
	batches []codedBatch
	pos     int
}

type codedBatch struct {
	d     *dict.Dict
	codes []int32 // -1: NULL
	ints  []int64
}

func (c *coded) Types() []columnar.Type         { return []columnar.Type{columnar.TVarchar, columnar.TInt64} }
func (c *coded) Children() []Operator           { return nil }
func (c *coded) String() string                 { return "coded" }
func (c *coded) Open(ctx context.Context) error { c.pos = 0; return nil }
func (c *coded) Close() error                   { return nil }

func (c *coded) Next(ctx context.Context) (*columnar.Batch, error) {
	if c.pos >= len(c.batches) {
		return nil, io.EOF
	}
	cb := c.batches[c.pos]
	c.pos++
	n := len(cb.codes)
	b := columnar.NewBatch(c.Types(), n)
	b.Len = n
	v := b.Cols[0]
	codes := dict.Set(v, cb.d, n)
	for i, x := range cb.codes {
		if x < 0 {
			v.SetNull(i, n)
			x = 0
		}
		codes[i] = x
	}
	copy(b.Cols[1].Ints, cb.ints)
	return b, nil
}

// TestHashAggCompositeCodedKeys: a coded string key groups by value, not
// by code, across dictionaries that number the same strings differently.
func TestHashAggCompositeCodedKeys(t *testing.T) {
	d1 := dict.New("x", "y")
	d2 := dict.New("y", "z", "x")
	src := &coded{batches: []codedBatch{
		{d1, []int32{0, 1, 0, -1}, []int64{1, 1, 2, 1}}, // x1 y1 x2 NULL1
		{d2, []int32{2, 0, 1, -1}, []int64{1, 1, 1, 1}}, // x1 y1 z1 NULL1
		{d1, []int32{1}, []int64{2}},                    // y2
	}}
	agg := &HashAgg{
		Input:  src,
		Groups: []Expr{ColumnExpr(0, columnar.TVarchar), ColumnExpr(1, columnar.TInt64)},
		Aggs:   []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}},
	}
	got := drainOpen(t, agg)
	slices.Sort(got)
	want := []string{"NULL|1|2", "x|1|2", "x|2|1", "y|1|2", "y|2|1", "z|1|1"}
	if !equalStrings(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestFloatSumOfDecimalsIsExact: SUM/AVG into DOUBLE of DECIMALs add the
// scaled integers, so 0.1 + 0.2 is 0.3 (float additions give
// 0.30000000000000004), and int64 overflow spills into the float part
// without losing the total.
func TestFloatSumOfDecimalsIsExact(t *testing.T) {
	d := columnar.DecimalType(15, 1)
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input: &source{types: []columnar.Type{d}, n: n, rows: [][]columnar.Value{{dec(15, 1, 1)}, {dec(15, 1, 2)}, {null(d)}}},
			Aggs: []AggSpec{
				{Kind: AggSum, Arg: ColumnExpr(0, d), Type: columnar.TFloat64},
				{Kind: AggAvg, Arg: ColumnExpr(0, d), Type: columnar.TFloat64},
			},
		}
		if got := drainOpen(t, agg); !equalStrings(got, []string{"0.3|0.15"}) {
			t.Fatalf("got %v", got)
		}
	})
	big := int64(1) << 62
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input: &source{types: []columnar.Type{columnar.TInt64}, n: n, rows: [][]columnar.Value{{i64(big)}, {i64(big)}, {i64(big)}, {i64(-big)}, {i64(4)}}},
			Aggs:  []AggSpec{{Kind: AggAvg, Arg: ColumnExpr(0, columnar.TInt64), Type: columnar.TFloat64}},
		}
		// (2^62·2 + 4) / 5, rounded once: 2^63/5 + 0.8.
		want := columnar.FloatValue(columnar.TFloat64, (float64(1<<63)+4)/5).String()
		if got := drainOpen(t, agg); !equalStrings(got, []string{want}) {
			t.Fatalf("got %v, want %s", got, want)
		}
	})
	agg := &HashAgg{Input: &source{types: []columnar.Type{d}, n: 7}, Aggs: []AggSpec{{Kind: AggAvg, Arg: ColumnExpr(0, d), Type: columnar.TFloat64}}}
	if got := drainOpen(t, agg); !equalStrings(got, []string{"NULL"}) {
		t.Fatalf("empty input: got %v", got)
	}
}

// TestHashAggSparseIntKeys: single integer keys past the direct table
// (negative, huge) group by value, with NULLs, at every batch size.
func TestHashAggSparseIntKeys(t *testing.T) {
	rows := [][]columnar.Value{
		{i64(-5)}, {i64(1 << 40)}, {null(columnar.TInt64)}, {i64(-5)}, {i64(3)}, {i64(1 << 40)}, {null(columnar.TInt64)}, {i64(math.MinInt64)},
	}
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input:  &source{types: []columnar.Type{columnar.TInt64}, rows: rows, n: n},
			Groups: []Expr{ColumnExpr(0, columnar.TInt64)},
			Aggs:   []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}},
		}
		got := drainOpen(t, agg)
		slices.Sort(got)
		want := []string{"-5|2", "-9223372036854775808|1", "1099511627776|2", "3|1", "NULL|2"}
		if !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

// TestHashAggCompositeEmptyInput: no rows, no groups (a grouped aggregate
// emits nothing, unlike a global one).
func TestHashAggCompositeEmptyInput(t *testing.T) {
	agg := &HashAgg{
		Input:  &source{types: []columnar.Type{columnar.TVarchar, columnar.TFloat64}, n: 7},
		Groups: []Expr{ColumnExpr(0, columnar.TVarchar), ColumnExpr(1, columnar.TFloat64)},
		Aggs:   []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}, {Kind: AggAvg, Arg: ColumnExpr(1, columnar.TFloat64), Type: columnar.TFloat64}},
	}
	if got := drainOpen(t, agg); len(got) != 0 {
		t.Fatalf("got %v, want no rows", got)
	}
}

// TestHashAggLongStringKeys: long, mostly distinct plain strings make the
// grouping use the encoded-key table (hashtab.longPlainStrings); NULLs and repeats
// group the same.
func TestHashAggLongStringKeys(t *testing.T) {
	long := func(s string) columnar.Value { return str(s + " and a tail past sixteen bytes") }
	// Mostly distinct in every first batch (sizes 1, 2, 7, 1024).
	rows := [][]columnar.Value{
		{long("a"), i64(1)}, {long("b"), i64(1)}, {long("c"), i64(1)}, {null(columnar.TVarchar), i64(1)},
		{long("a"), null(columnar.TInt64)}, {null(columnar.TVarchar), i64(1)}, {long("d"), i64(2)}, {long("a"), i64(1)},
	}
	types := []columnar.Type{columnar.TVarchar, columnar.TInt64}
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input:  &source{types: types, rows: rows, n: n},
			Groups: []Expr{ColumnExpr(0, columnar.TVarchar), ColumnExpr(1, columnar.TInt64)},
			Aggs:   []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}},
		}
		got, kind := drainAgg(t, agg)
		if kind != "encoded" {
			t.Fatalf("long strings should use the encoded-key table, not %s", kind)
		}
		slices.Sort(got)
		want := []string{
			"NULL|1|2",
			"a and a tail past sixteen bytes|1|2", "a and a tail past sixteen bytes|NULL|1",
			"b and a tail past sixteen bytes|1|1", "c and a tail past sixteen bytes|1|1", "d and a tail past sixteen bytes|2|1",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}
