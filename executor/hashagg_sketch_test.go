package executor

import (
	"context"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
)

// sketchOf adds keys from..to-1, each rep times, as the dealer would.
func sketchOf(from, to, rep int) *keySketch {
	var k keySketch
	for r := 0; r < rep; r++ {
		for i := from; i < to; i++ {
			k.add(spread(mixHash(0x2d358dccaa6c78a5, uint64(i))))
		}
	}
	return &k
}

func TestKeySketchEstimate(t *testing.T) {
	if n := (&keySketch{}).estimate(); n != 0 {
		t.Errorf("empty sketch estimates %d", n)
	}
	for _, n := range []int{1, 10, 100, 1000, 10_000, 100_000, 1_000_000} {
		got := sketchOf(0, n, 1).estimate()
		// 256 registers: a standard error of 1.04/16 = 6.5%; 20% is three
		// of them. Small counts are linear counting, near exact.
		if d := float64(got-n) / float64(n); d > 0.2 || d < -0.2 {
			t.Errorf("%d distinct keys estimated %d", n, got)
		}
	}
	// Repeats add nothing; two halves merged are the whole.
	if a, b := sketchOf(0, 5000, 1).estimate(), sketchOf(0, 5000, 4).estimate(); a != b {
		t.Errorf("5000 keys once: %d, four times: %d", a, b)
	}
	lo, hi, all := sketchOf(0, 30_000, 1), sketchOf(30_000, 60_000, 1), sketchOf(0, 60_000, 1)
	lo.merge(hi)
	if *lo != *all {
		t.Errorf("merged halves differ from the whole: %d vs %d", lo.estimate(), all.estimate())
	}
}

// A final over a PartitionSource whose sketches count n distinct keys
// opens with its string table sized for them: reserving again allocates
// nothing. A final grouping by more columns than the partition's keys
// (a split DISTINCT's inner) is left to grow.
func TestFinalReservesFromSketch(t *testing.T) {
	const n = 50_000
	src := &PartitionSource{Out: []columnar.Type{columnar.TVarchar, columnar.TInt64},
		sketches: []*keySketch{sketchOf(0, n/2, 1), sketchOf(n/4, n, 2)}, keys: 1}
	src.stores = make([]*chunkedStore, 2)
	final := func(groups int) *HashAgg {
		h := &HashAgg{Input: src}
		for g := range groups {
			h.Groups = append(h.Groups, ColumnExpr(g, src.Out[g]))
		}
		if err := h.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		return h
	}
	h := final(1)
	if more := hashtab.ReserveBytes(h.groups, hashtab.Expect{Keys: n * 9 / 10}); more != 0 {
		t.Errorf("final of one key: reserving %d keys again allocates %d bytes", n*9/10, more)
	}
	if hashtab.ReserveBytes(hashtab.New([]columnar.Type{columnar.TVarchar}), hashtab.Expect{Keys: n * 9 / 10}) == 0 {
		t.Errorf("a fresh string table needs no bytes for %d keys", n)
	}
	h.Close()
	if h := final(2); h.groups.Bytes() > 1<<16 {
		t.Errorf("final of two keys over a one-key partition reserved: %d bytes", h.groups.Bytes())
	}
}
