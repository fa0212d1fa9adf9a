package hashtab

import (
	"fmt"
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// Many distinct tuples: every probe tuple (a, b) with a < 300 finds
// exactly the build row a*20+b/7, packed (a and b fit in 17 bits) and
// chained (a and b scaled by 2^40 need 97 bits; the table resizes several
// times).
func TestMultiIntTableResize(t *testing.T) {
	for _, scale := range []int64{1, 1 << 40} {
		tab := newMultiIntTable(2)
		r := int32(0)
		for a := range 300 {
			for b := range 20 {
				tab.tuple[0], tab.tuple[1] = int64(a)*scale, int64(b*7)*scale
				tab.insert(r)
				r++
			}
		}
		tab.finish()
		if packed := tab.packed != nil; packed != (scale == 1) {
			t.Fatalf("scale %d: packed %v", scale, packed)
		}
		a := columnar.NewVector(columnar.TInt64, 5)
		b := columnar.NewVector(columnar.TInt64, 5)
		copy(a.Ints, []int64{0, 299 * scale, 150 * scale, 300 * scale, -1})
		copy(b.Ints, []int64{0, 19 * 7 * scale, 3 * scale, 0, 0})
		pl, pr := tab.probe([]*columnar.Vector{a, b}, []int{0, 1, 2, 3, 4}, make([]bool, 5), nil, nil, &multiProbe{})
		got := fmt.Sprint(pl, pr)
		if want := fmt.Sprint([]int32{0, 1}, []int32{0, 299*20 + 19}); got != want {
			t.Fatalf("scale %d: got %s, want %s", scale, got, want)
		}
	}
}

// Three keys: only the exact tuple matches, duplicates in build order,
// packed and (with keys at both ends of int64) chained.
func TestMultiIntTableThreeKeys(t *testing.T) {
	for _, extra := range []bool{false, true} {
		tab := newMultiIntTable(3)
		build := [][3]int64{{1, 2, 3}, {1, 2, 4}, {3, 2, 1}, {1, 2, 3}}
		if extra {
			build = append(build, [3]int64{math.MinInt64, 0, math.MaxInt64})
		}
		for r, k := range build {
			copy(tab.tuple, k[:])
			tab.insert(int32(r))
		}
		tab.finish()
		if packed := tab.packed != nil; packed == extra {
			t.Fatalf("extremes %v: packed %v", extra, packed)
		}
		cols := make([]*columnar.Vector, 3)
		probe := [][3]int64{{1, 2, 3}, {1, 2, 5}, {3, 2, 1}, {math.MinInt64, 0, math.MaxInt64}}
		for c := range cols {
			cols[c] = columnar.NewVector(columnar.TInt64, len(probe))
			for i, k := range probe {
				cols[c].Ints[i] = k[c]
			}
		}
		pl, pr := tab.probe(cols, []int{0, 1, 2, 3}, make([]bool, 4), nil, nil, &multiProbe{})
		wantL, wantR := []int32{0, 0, 2}, []int32{0, 3, 2}
		if extra {
			wantL, wantR = append(wantL, 3), append(wantR, 4)
		}
		if got, want := fmt.Sprint(pl, pr), fmt.Sprint(wantL, wantR); got != want {
			t.Fatalf("extremes %v: got %s, want %s", extra, got, want)
		}
	}
}
