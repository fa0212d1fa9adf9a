package parquet

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestSelectInInts checks the mask and list loops against a plain
// membership test, with and without NULLs, over spans below and above 64
// and constants at the ends of int64 (where hi-lo overflows).
func TestSelectInInts(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	cases := []struct {
		name string
		vals []int64
		gen  func() int64
	}{
		{"mask", []int64{1, 5, 7}, func() int64 { return r.Int64N(12) - 2 }},
		{"mask span 63", []int64{-10, 53}, func() int64 { return r.Int64N(80) - 15 }},
		{"list span 64", []int64{-10, 54, 3}, func() int64 { return r.Int64N(80) - 15 }},
		{"list extremes", []int64{math.MinInt64, math.MaxInt64, 0}, func() int64 {
			return []int64{math.MinInt64, math.MaxInt64, 0, 1, -1}[r.IntN(5)]
		}},
		{"mask near max", []int64{math.MaxInt64, math.MaxInt64 - 3}, func() int64 { return math.MaxInt64 - r.Int64N(70) }},
	}
	for _, tc := range cases {
		for _, nulls := range []bool{false, true} {
			name := tc.name
			if nulls {
				name += "/nulls"
			}
			t.Run(name, func(t *testing.T) {
				const n = 1000
				data := make([]int64, n)
				for i := range data {
					data[i] = tc.gen()
				}
				var valid columnar.Bitmap
				if nulls {
					valid = columnar.NewBitmap(n)
					for i := 0; i < n; i += 3 {
						valid.Clear(i)
					}
				}
				var sel, want []int
				for i := 0; i < n; i++ {
					if r.IntN(4) == 0 {
						continue // a sparse selection
					}
					sel = append(sel, i)
					if valid.Get(i) && slices.Contains(tc.vals, data[i]) {
						want = append(want, i)
					}
				}
				got := selectInInts(data, tc.vals, valid, sel)
				if !slices.Equal(got, want) {
					t.Fatalf("got %d rows %v…, want %d rows %v…", len(got), got[:min(8, len(got))], len(want), want[:min(8, len(want))])
				}
			})
		}
	}
}
