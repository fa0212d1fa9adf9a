package executor

import (
	"context"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func seriesRows(t *testing.T, s Series, limit int64) []int64 {
	t.Helper()
	r := NewSeriesReader(s, true, limit)
	var out []int64
	for {
		b, err := r.Next(context.Background())
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b.Cols[0].Ints[:b.Len]...)
	}
}

func TestSeriesReader(t *testing.T) {
	day := int64(columnar.MicrosPerDay)
	cases := []struct {
		name  string
		s     Series
		limit int64
		want  []int64
	}{
		{"exclusive", Series{Start: 0, Stop: 3, Step: 1}, -1, []int64{0, 1, 2}},
		{"inclusive", Series{Start: 0, Stop: 3, Step: 1, Inclusive: true}, -1, []int64{0, 1, 2, 3}},
		{"down", Series{Start: 5, Stop: 0, Step: -2}, -1, []int64{5, 3, 1}},
		{"down inclusive", Series{Start: 4, Stop: 0, Step: -2, Inclusive: true}, -1, []int64{4, 2, 0}},
		{"empty", Series{Start: 3, Stop: 3, Step: 1}, -1, nil},
		{"wrong direction", Series{Start: 0, Stop: 3, Step: -1}, -1, nil},
		{"limit", Series{Start: 0, Stop: math.MaxInt64, Step: 1}, 2, []int64{0, 1}},
		// The step past MaxInt64 would wrap around: the series ends instead.
		{"no overflow", Series{Start: math.MaxInt64 - 2, Stop: math.MaxInt64, Step: 2, Inclusive: true}, -1, []int64{math.MaxInt64 - 2, math.MaxInt64}},
		{"no underflow", Series{Start: math.MinInt64 + 1, Stop: math.MinInt64, Step: -3, Inclusive: true}, -1, []int64{math.MinInt64 + 1}},
		// 2024-01-31 + 1 month, step after step: 02-29, 03-29 (days since 1970: 19753, 19782, 19811).
		{"months", Series{Start: 19753 * day, Stop: 19811 * day, Step: 0, Months: 1, Inclusive: true, Type: columnar.TTimestamp}, -1,
			[]int64{19753 * day, 19782 * day, 19811 * day}},
		{"hours down", Series{Start: day, Stop: 0, Step: -day / 2, Type: columnar.TTimestamp}, -1, []int64{day, day / 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.s.Type.ID == columnar.Null {
				tc.s.Type = columnar.TInt64
			}
			if got := seriesRows(t, tc.s, tc.limit); !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSeriesReaderBatches checks batch boundaries: 2500 rows come as
// 1024 + 1024 + 452, and the sum is n(n-1)/2.
func TestSeriesReaderBatches(t *testing.T) {
	r := NewSeriesReader(Series{Start: 0, Stop: 2500, Step: 1, Type: columnar.TInt64}, false, -1)
	var lens []int
	for {
		b, err := r.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Cols) != 0 {
			t.Fatalf("count(*) reader has %d columns", len(b.Cols))
		}
		lens = append(lens, b.Len)
	}
	if !slices.Equal(lens, []int{1024, 1024, 452}) {
		t.Fatalf("batch lengths %v", lens)
	}
	got := seriesRows(t, Series{Start: 0, Stop: 2500, Step: 1, Type: columnar.TInt64}, -1)
	var sum int64
	for _, v := range got {
		sum += v
	}
	if sum != 2500*2499/2 {
		t.Fatalf("sum %d", sum)
	}
}
