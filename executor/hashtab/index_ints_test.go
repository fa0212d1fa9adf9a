package hashtab

import (
	"fmt"
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// After finish, every key's rows come out in insertion order, with NULL
// probe keys marked and absent keys matching nothing: keys -2500..2499
// (a dense table, hashjoin_dense.go); the same keys times 2^20 (spread
// out: a shifted range table; the lowest key's rows share its bucket
// with those of the key after it, added), also moved next to the top of int64 (the unsigned offsets
// must not wrap); times 2^50 with keys at both ends of int64 added (a
// span that overflows int64 and buckets of 2^50 keys: hashed); unscaled
// with those ends added (bunched in a few buckets: hashed, growing past
// its start for 5000 distinct keys).
func TestIntTableGroupsRowsInOrder(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scale    int64
		offset   int64
		extremes bool
		mode     string
	}{
		{"dense", 1, 0, false, "dense"},
		{"spread", 1 << 20, 0, false, "range"},
		{"spread high", 1 << 20, math.MaxInt64 - 2500<<20, false, "range"},
		{"sparse extremes", 1 << 50, 0, true, "hashed"},
		{"bunched extremes", 1, 0, true, "hashed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := newIntTable()
			// Row r has key r%5000 - 2500 (times scale, plus offset) and
			// is inserted unless r%7 == 3 (a NULL key skipped by the
			// caller): key k's rows are k, k+5000, k+10000 minus those
			// skipped.
			key := func(k int64) int64 { return k*tc.scale + tc.offset }
			for r := range int32(15000) {
				if r%7 != 3 {
					tab.insert(key(int64(r%5000)-2500), r)
				}
			}
			if tc.extremes {
				tab.insert(math.MinInt64, 15000)
				tab.insert(math.MaxInt64, 15001)
			}
			if tc.mode == "range" {
				tab.insert(key(-2500)+1, 15002)
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
			if mode == "range" && tab.dense[1]-tab.dense[0] != 4 {
				t.Fatalf("first bucket holds %d rows, want 4", tab.dense[1]-tab.dense[0])
			}
			v := columnar.NewVector(columnar.TInt64, 6)
			copy(v.Ints, []int64{key(-2500), key(4999), key(2499), 0, math.MinInt64, math.MaxInt64})
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
