package executor

import (
	"fmt"
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// After finish, every key's rows come out in insertion order, with NULL
// probe keys marked and absent keys matching nothing: keys -2500..2499
// (a dense table, hashjoin_dense.go), the same keys times 2^40 (spread
// out: a shifted range table, three rows of a key and some other keys
// sharing a bucket), times 2^50 with keys at both ends of int64 added
// (whose span overflows), and unscaled with those ends added (bunched in
// a few buckets: hashed, growing past its start for 5000 distinct keys).
func TestIntTableGroupsRowsInOrder(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scale    int64
		extremes bool
		mode     string
	}{
		{"dense", 1, false, "dense"},
		{"spread", 1 << 40, false, "range"},
		{"spread extremes", 1 << 50, true, "range"},
		{"bunched extremes", 1, true, "hashed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := newIntTable()
			// Row r has key r%5000 - 2500 (times scale) and is inserted
			// unless r%7 == 3 (a NULL key skipped by the caller): key k's
			// rows are k, k+5000, k+10000 minus those skipped.
			for r := range int32(15000) {
				if r%7 != 3 {
					tab.insert((int64(r%5000)-2500)*tc.scale, r)
				}
			}
			if tc.extremes {
				tab.insert(math.MinInt64, 15000)
				tab.insert(math.MaxInt64, 15001)
			}
			tab.finish()
			mode := "hashed"
			if tab.dense != nil {
				mode = "dense"
				if tab.rshift > 0 {
					mode = "range"
				}
			}
			if mode != tc.mode {
				t.Fatalf("%s table, want %s", mode, tc.mode)
			}
			v := columnar.NewVector(columnar.TInt64, 6)
			copy(v.Ints, []int64{-2500 * tc.scale, 4999 * tc.scale, 2499 * tc.scale, 0, math.MinInt64, math.MaxInt64})
			v.SetNull(3, 6)
			lnull := make([]bool, 6)
			pl, pr := tab.probeInts(v, []int{0, 1, 2, 3, 4, 5}, lnull, nil, nil)
			// key -2500 = rows 0, 5000, 10000 (5000%7 = 2, 10000%7 = 4:
			// none skipped); 4999 is absent; key 2499 = rows 4999, 9999,
			// 14999 (4999%7 = 1, 9999%7 = 3: skipped, 14999%7 = 5).
			wantL, wantR := []int32{0, 0, 0, 2, 2}, []int32{0, 5000, 10000, 4999, 14999}
			if tc.extremes {
				wantL, wantR = append(wantL, 4, 5), append(wantR, 15000, 15001)
			}
			got := fmt.Sprint(pl, pr, lnull)
			want := fmt.Sprint(wantL, wantR, []bool{false, false, false, true, false, false})
			if got != want {
				t.Fatalf("got %s, want %s", got, want)
			}
		})
	}
}
