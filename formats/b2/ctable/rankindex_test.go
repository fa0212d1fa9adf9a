package ctable

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// Ranks of a vocabulary worked out by hand: "apple" 0, "banana" 1,
// "cherry" 2, "é" 3 (U+00E9 sorts after every ASCII letter, by code point
// as numpy sorts), NULL 4.
func TestRankIntervals(t *testing.T) {
	ri := &rankIndex{vocab: []string{"apple", "banana", "cherry", "é"}, nullRank: 4}
	s := columnar.StringValue
	for _, tc := range []struct {
		p      index.Pred
		ranges [][2]int64 // [lo, hi) of ranks
	}{
		{index.Pred{Op: index.Eq, Vals: []columnar.Value{s("banana")}}, [][2]int64{{1, 2}}},
		{index.Pred{Op: index.Eq, Vals: []columnar.Value{s("bananas")}}, [][2]int64{{1, 1}}},
		{index.Pred{Op: index.Lt, Vals: []columnar.Value{s("banana")}}, [][2]int64{{0, 1}}},
		{index.Pred{Op: index.Le, Vals: []columnar.Value{s("banana")}}, [][2]int64{{0, 2}}},
		{index.Pred{Op: index.Gt, Vals: []columnar.Value{s("b")}}, [][2]int64{{1, 4}}},
		{index.Pred{Op: index.Ge, Vals: []columnar.Value{s("cherry")}}, [][2]int64{{2, 4}}},
		{index.Pred{Op: index.Gt, Vals: []columnar.Value{s("z")}}, [][2]int64{{3, 4}}},
		{index.Pred{Op: index.Between, Vals: []columnar.Value{s("b"), s("c")}}, [][2]int64{{1, 2}}},
		{index.Pred{Op: index.In, Vals: []columnar.Value{s("é"), s("apple"), s("kiwi")}}, [][2]int64{{0, 1}, {1, 1}, {3, 4}}},
	} {
		ivs, ok := predIntervals(tc.p, columnar.TVarchar)
		if !ok {
			t.Fatalf("%v: no intervals", tc.p)
		}
		got := ri.intervals(ivs)
		if len(got) != len(tc.ranges) {
			t.Fatalf("%v: %d intervals, want %d", tc.p, len(got), len(tc.ranges))
		}
		for i, iv := range got {
			if !iv.hasLo || !iv.hasHi || iv.loOpen || !iv.hiOpen || iv.lo.I != tc.ranges[i][0] || iv.hi.I != tc.ranges[i][1] {
				t.Errorf("%v: interval %d = [%d, %d), want %v", tc.p, i, iv.lo.I, iv.hi.I, tc.ranges[i])
			}
		}
	}
}
