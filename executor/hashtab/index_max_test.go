package hashtab

import (
	"fmt"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestMaxMatchesInts: MaxMatches of the integer tables bounds what one
// probe row matches, and is exact where a group holds one key (hashed,
// dense, chained and packed tuples); a shifted range table's bucket may
// hold two neighbouring keys, so it is at most their sum there.
func TestMaxMatchesInts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nk    int
		key   func(i int) []int64
		exact bool
	}{
		{"dense", 1, func(i int) []int64 { return []int64{int64(i % 100)} }, true},
		{"hot-key", 1, func(i int) []int64 {
			if i%3 == 0 {
				return []int64{7}
			}
			return []int64{int64(i)}
		}, true},
		{"hashed", 1, func(i int) []int64 { return []int64{int64(i%50) << 40} }, true},
		{"shifted", 1, func(i int) []int64 { return []int64{int64(i%500) * 5} }, false},
		{"packed", 2, func(i int) []int64 { return []int64{int64(i % 10), int64(i % 7)} }, true},
		{"chained", 2, func(i int) []int64 { return []int64{int64(i%10) << 40, int64(i%3) << 40} }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 3000
			types := make([]columnar.Type, tc.nk)
			for c := range types {
				types[c] = columnar.TInt64
			}
			counts := map[string]int{}
			b := columnar.NewBatch(types, n)
			for i := range n {
				k := tc.key(i)
				for c := range tc.nk {
					b.Cols[c].Ints[i] = k[c]
				}
				counts[fmt.Sprint(k)]++
			}
			b.Len = n
			x := NewIndex(types)
			x.Add(b, b.Cols, 0)
			x.Finish()
			most := 0
			for _, c := range counts {
				most = max(most, c)
			}
			got := x.MaxMatches()
			if got < most || (tc.exact && got != most) || got > 2*most {
				t.Fatalf("MaxMatches %d, largest group %d (exact %v)", got, most, tc.exact)
			}
		})
	}
}
