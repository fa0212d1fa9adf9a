package main

import (
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

func TestEqualCell(t *testing.T) {
	tests := []struct {
		name string
		a, b cell
		want bool
	}{
		{"ints equal", cell{K: kInt, I: 7}, cell{K: kInt, I: 7}, true},
		{"ints differ by one", cell{K: kInt, I: 500_000_000}, cell{K: kInt, I: 500_000_001}, false},
		{"float within tolerance", cell{K: kFloat, F: 1000}, cell{K: kFloat, F: 1000.0000001}, true},
		{"float outside tolerance", cell{K: kFloat, F: 1000}, cell{K: kFloat, F: 1000.01}, false},
		{"int vs float", cell{K: kInt, I: 3}, cell{K: kFloat, F: 3}, true},
		{"nan vs nan", cell{K: kFloat, F: math.NaN()}, cell{K: kFloat, F: math.NaN()}, true},
		{"nan vs number", cell{K: kFloat, F: math.NaN()}, cell{K: kFloat, F: 1}, false},
		{"null vs null", cell{K: kNull}, cell{K: kNull}, true},
		{"null vs zero", cell{K: kNull}, cell{K: kInt}, false},
		{"string vs number", cell{K: kString, S: "1"}, cell{K: kInt, I: 1}, false},
		{"bools", cell{K: kBool, I: 1}, cell{K: kBool, I: 1}, true},
		{"times", cell{K: kTime, I: 5}, cell{K: kTime, I: 6}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := equalCell(tc.a, tc.b); got != tc.want {
				t.Errorf("equalCell(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	row := func(s string, n int64, f float64) []cell {
		return []cell{{K: kString, S: s}, {K: kInt, I: n}, {K: kFloat, F: f}}
	}
	cols := []string{"category", "count", "sum"}
	a := &result{Cols: cols, Rows: [][]cell{row("x", 1, 1.5), row("y", 2, 2.5)}}
	swapped := &result{Cols: cols, Rows: [][]cell{row("y", 2, 2.5000000001), row("x", 1, 1.5)}}
	short := &result{Cols: cols, Rows: [][]cell{row("x", 1, 1.5)}}
	wrong := &result{Cols: cols, Rows: [][]cell{row("x", 1, 1.5), row("y", 3, 2.5)}}

	if d := diff(a, swapped, false, "A", "B"); d != "" {
		t.Errorf("unordered diff of permuted rows = %q, want agreement", d)
	}
	if d := diff(a, swapped, true, "A", "B"); !strings.Contains(d, "row 0") {
		t.Errorf("ordered diff of permuted rows = %q, want a difference at row 0", d)
	}
	if d := diff(a, short, false, "A", "B"); !strings.Contains(d, `first extra A row: ("y", 2, 2.5)`) {
		t.Errorf("diff with a missing row = %q", d)
	}
	if d := diff(a, wrong, false, "A", "B"); !strings.Contains(d, `column 2 (count)`) ||
		!strings.Contains(d, `A ("y", 2, 2.5) vs B ("y", 3, 2.5)`) {
		t.Errorf("diff with a wrong count = %q", d)
	}
	// diff must not reorder its inputs.
	if swapped.Rows[0][0].S != "y" {
		t.Errorf("diff sorted its input in place")
	}
}

func TestNormalize(t *testing.T) {
	ts := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	huge, _ := new(big.Int).SetString("170141183460469231731687303715884105727", 10)
	duck := []any{int64(7), big.NewInt(42), float64(1.5), "x", ts, true, nil, int16(3),
		big.NewInt(499975104), huge, 12.5}
	b2 := []columnar.Value{
		columnar.IntValue(columnar.TInt64, 7),
		columnar.IntValue(columnar.TInt64, 42),
		columnar.FloatValue(columnar.TFloat64, 1.5),
		columnar.StringValue("x"),
		columnar.IntValue(columnar.TTimestamp, ts.UnixMicro()),
		columnar.BoolValue(true),
		columnar.NullValue(columnar.TFloat64),
		columnar.IntValue(columnar.TInt16, 3),
		columnar.WideValue(columnar.THugeint, columnar.Int128Of(499975104)), // sum(INTEGER)
		columnar.WideValue(columnar.THugeint, columnar.Int128{Hi: math.MaxInt64, Lo: math.MaxUint64}),
		columnar.WideValue(columnar.DecimalType(38, 2), columnar.Int128Of(1250)),
	}
	for i := range duck {
		d, err := fromDuck(duck[i])
		if err != nil {
			t.Fatal(err)
		}
		if b := fromB2SQL(b2[i]); !equalCell(d, b) {
			t.Errorf("value %d: DuckDB %v normalizes to %v, b2sql %v to %v", i, duck[i], d, b2[i], b)
		}
	}
}
