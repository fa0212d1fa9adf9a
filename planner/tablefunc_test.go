package planner

import (
	"context"
	"io"
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

func TestSeriesLen(t *testing.T) {
	cases := []struct {
		s    Series
		n    uint64
		ok   bool
		name string
	}{
		{Series{Start: 0, Stop: 10, Step: 1}, 10, true, "exclusive"},
		{Series{Start: 0, Stop: 10, Step: 1, Inclusive: true}, 11, true, "inclusive"},
		{Series{Start: 0, Stop: 10, Step: 3}, 4, true, "step 3: 0 3 6 9"},
		{Series{Start: 10, Stop: 0, Step: -3, Inclusive: true}, 4, true, "down: 10 7 4 1"},
		{Series{Start: 5, Stop: 5, Step: 1}, 0, true, "empty"},
		{Series{Start: math.MinInt64, Stop: math.MaxInt64, Step: math.MaxInt64, Inclusive: true}, 3, true, "whole range: min, -1, max-1"},
		{Series{Start: math.MaxInt64, Stop: math.MinInt64, Step: math.MinInt64, Inclusive: true}, 2, true, "MinInt64 step"},
		{Series{Start: math.MinInt64, Stop: math.MaxInt64, Step: 1, Inclusive: true}, 0, false, "2^64 rows"},
		{Series{Start: 0, Stop: 100, Months: 1}, 0, false, "months"},
	}
	for _, tc := range cases {
		n, ok := seriesLen(tc.s)
		if n != tc.n || ok != tc.ok {
			t.Errorf("%s: got %d %v, want %d %v", tc.name, n, ok, tc.n, tc.ok)
		}
	}
}

// TestSeriesUnits checks that the units of a split series, read in order,
// are the series: 200003 values (not a multiple of the unit size).
func TestSeriesUnits(t *testing.T) {
	tbl := &SeriesTable{Func: "range", Series: Series{Start: -5, Stop: 1000000, Step: 5, Type: columnar.TInt64}}
	units, err := tbl.ScanUnits(context.Background(), index.ScanSpec{Cols: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	if len(units) < 2 {
		t.Fatalf("%d units, want several", len(units))
	}
	want := int64(-5)
	for _, u := range units {
		r, err := u(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for {
			b, err := r.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range b.Cols[0].Ints[:b.Len] {
				if v != want {
					t.Fatalf("got %d, want %d", v, want)
				}
				want += 5
			}
		}
	}
	if want != 1000000 {
		t.Fatalf("series ended before %d", want)
	}
}
