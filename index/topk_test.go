package index

import (
	"math"
	"sync"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func iv(v int64) columnar.Value   { return columnar.IntValue(columnar.TInt64, v) }
func fv(v float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, v) }

func ist(lo, hi int64) Stats {
	return Stats{HasMinMax: true, Min: iv(lo), Max: iv(hi), NullCount: 0, Rows: 10}
}

func TestTopKBoundSkips(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name  string
		desc  bool
		ties  bool
		bound *columnar.Value
		s     Stats
		want  bool
	}{
		{"no bound", true, false, nil, ist(0, 1), false},
		{"desc max below", true, false, ptr(iv(10)), ist(0, 9), true},
		{"desc max equal: ties never enter", true, false, ptr(iv(10)), ist(0, 10), true},
		{"desc max above", true, false, ptr(iv(10)), ist(0, 11), false},
		{"asc min above", false, false, ptr(iv(10)), ist(11, 20), true},
		{"asc min equal", false, false, ptr(iv(10)), ist(10, 20), true},
		{"asc min below", false, false, ptr(iv(10)), ist(9, 20), false},
		{"all null", true, false, ptr(iv(10)), Stats{NullCount: 10, Rows: 10}, true},
		{"no stats", true, false, ptr(iv(10)), Stats{NullCount: -1, Rows: 10}, false},
		{"nulls do not beat (nulls last)", true, false, ptr(iv(10)), Stats{HasMinMax: true, Min: iv(1), Max: iv(2), NullCount: 5, Rows: 10}, true},
		{"desc nan may beat", true, false, ptr(fv(5)), Stats{HasMinMax: true, Min: fv(1), Max: fv(2), HasNaN: true, NullCount: 0, Rows: 10}, false},
		{"asc nan never beats", false, false, ptr(fv(5)), Stats{HasMinMax: true, Min: fv(6), Max: fv(7), HasNaN: true, NullCount: 0, Rows: 10}, true},
		{"desc nan bound: nothing beats", true, false, ptr(fv(nan)), Stats{HasMinMax: true, Min: fv(1), Max: fv(2), HasNaN: true, NullCount: 0, Rows: 10}, true},
		{"asc nan bound: numbers beat", false, false, ptr(fv(nan)), Stats{HasMinMax: true, Min: fv(1), Max: fv(2), NullCount: 0, Rows: 10}, false},
		{"type mismatch", true, false, ptr(iv(1)), Stats{HasMinMax: true, Min: fv(1), Max: fv(2), NullCount: 0, Rows: 10}, false},
		// Later keys break ties (ORDER BY x DESC, id): an equal key may still enter.
		{"ties: desc max equal may enter", true, true, ptr(iv(10)), ist(0, 10), false},
		{"ties: desc max below", true, true, ptr(iv(10)), ist(0, 9), true},
		{"ties: asc min equal may enter", false, true, ptr(iv(10)), ist(10, 20), false},
		{"ties: asc min above", false, true, ptr(iv(10)), ist(11, 20), true},
		{"ties: desc nan bound, unit with nan may tie", true, true, ptr(fv(nan)), Stats{HasMinMax: true, Min: fv(1), Max: fv(2), HasNaN: true, NullCount: 0, Rows: 10}, false},
		{"ties: desc nan bound, numbers only", true, true, ptr(fv(nan)), Stats{HasMinMax: true, Min: fv(1), Max: fv(2), NullCount: 0, Rows: 10}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &TopKBound{Desc: tc.desc, Ties: tc.ties}
			if tc.bound != nil {
				b.Publish(*tc.bound)
			}
			if got := b.Skips(tc.s); got != tc.want {
				t.Fatalf("Skips = %v, want %v", got, tc.want)
			}
		})
	}
}

func ptr(v columnar.Value) *columnar.Value { return &v }

func TestTopKBoundPublishKeepsBest(t *testing.T) {
	b := &TopKBound{Desc: true}
	b.Publish(columnar.NullValue(columnar.TInt64))
	if _, ok := b.Bound(); ok {
		t.Fatal("a NULL key must not become a bound")
	}
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() { defer wg.Done(); b.Publish(iv(int64(i))) }()
	}
	wg.Wait()
	if v, _ := b.Bound(); v.I != 99 {
		t.Fatalf("DESC bound = %d, want the largest published key 99", v.I)
	}
	b.Publish(iv(50))
	if v, _ := b.Bound(); v.I != 99 {
		t.Fatalf("a worse key replaced the bound: %d", v.I)
	}
	b.Reset()
	if _, ok := b.Bound(); ok {
		t.Fatal("Reset kept the bound")
	}
	a := &TopKBound{}
	a.Publish(iv(7))
	a.Publish(iv(3))
	a.Publish(iv(5))
	if v, _ := a.Bound(); v.I != 3 {
		t.Fatalf("ASC bound = %d, want 3", v.I)
	}
}

func TestTopKBoundOrder(t *testing.T) {
	stats := map[int]Stats{
		0: ist(0, 9),
		1: ist(10, 19),
		2: {NullCount: 10, Rows: 10}, // NULLs only: last
		3: ist(20, 29),
		5: ist(5, 19), // same max as unit 1: stays after it
	}
	get := func(u int) (Stats, bool) { s, ok := stats[u]; return s, ok }
	units := []int{0, 1, 2, 3, 4, 5}
	(&TopKBound{Desc: true}).Order(units, get)
	want := []int{4, 3, 1, 5, 0, 2} // 4 has no stats: first
	for i := range want {
		if units[i] != want[i] {
			t.Fatalf("DESC order = %v, want %v", units, want)
		}
	}
	units = []int{0, 1, 2, 3, 4, 5}
	(&TopKBound{}).Order(units, get)
	want = []int{4, 0, 5, 1, 3, 2}
	for i := range want {
		if units[i] != want[i] {
			t.Fatalf("ASC order = %v, want %v", units, want)
		}
	}
}

// TestExtremes: MIN(a) and MAX(b) over units of two columns.
func TestExtremes(t *testing.T) {
	const a, b = 0, 3
	stats := map[[2]int]Stats{ // (unit, col)
		{0, a}: ist(5, 9), {0, b}: ist(0, 50),
		{1, a}: ist(1, 9), {1, b}: ist(0, 10),
		{2, a}: ist(3, 9), {2, b}: ist(0, 90),
		{3, a}: ist(4, 9), {3, b}: ist(0, 20),
	}
	get := func(u, col int) (Stats, bool) { s, ok := stats[[2]int{u, col}]; return s, ok }
	lo, hi := &TopKBound{Col: a}, &TopKBound{Col: b, Desc: true}
	bs := []*TopKBound{lo, hi}
	units := []int{0, 1, 2, 3}
	OrderExtremes(bs, units, get)
	// best for MIN first, then best for MAX, then the next of each
	want := []int{1, 2, 0, 3} // MIN order 1 2 3 0, MAX order 2 0 3 1
	for i := range want {
		if units[i] != want[i] {
			t.Fatalf("order = %v, want %v", units, want)
		}
	}
	skips := func(u int) bool { return ExtremesSkip(bs, func(col int) (Stats, bool) { return get(u, col) }) }
	if skips(0) {
		t.Fatal("skipped a unit before any bound was published")
	}
	lo.Publish(iv(1))
	if skips(0) {
		t.Fatal("skipped unit 0 with no MAX bound: it may hold the greatest b")
	}
	hi.Publish(iv(60))
	if !skips(0) || !skips(3) {
		t.Fatal("unit 0 or 3 not skipped: it beats neither min(a) >= 1 nor max(b) <= 60")
	}
	if skips(2) {
		t.Fatal("unit 2 skipped: its b may reach 90")
	}
	hi.Publish(iv(90)) // equal to unit 2's max: cannot beat it
	if !skips(2) {
		t.Fatal("unit 2 not skipped: its max equals the bound")
	}
	if ExtremesSkip(nil, func(int) (Stats, bool) { return ist(0, 0), true }) {
		t.Fatal("no bounds skipped a unit")
	}
	noStats := func(int) (Stats, bool) { return Stats{}, false }
	if ExtremesSkip(bs, noStats) {
		t.Fatal("a unit without statistics was skipped")
	}
}

// TestTopKBoundSeed: a seed is the K-th best of the units' best keys; it
// skips only units strictly worse (a unit whose best key equals it may
// hold the k-th row), until a top-k publishes a better key.
func TestTopKBoundSeed(t *testing.T) {
	best := []columnar.Value{iv(5), iv(9), {Null: true}, iv(7), iv(9), iv(1)}
	b := &TopKBound{Col: 0, Desc: true, K: 3}
	b.Seed(best)
	if k, ok := b.Bound(); !ok || k.I != 7 {
		t.Fatalf("DESC K=3 seed = %v, %v; want 7 (of 9, 9, 7, 5, 1)", k, ok)
	}
	if !b.Skips(ist(0, 6)) || b.Skips(ist(0, 7)) {
		t.Fatal("a seed skips units whose max is below it, not equal to it")
	}
	b.Publish(iv(7)) // a top-k holds 3 rows, the third with key 7
	if !b.Skips(ist(0, 7)) {
		t.Fatal("a key a top-k holds, equal to the seed, does not replace it")
	}
	b.Seed(best)
	if !b.Skips(ist(0, 7)) {
		t.Fatal("an equal seed replaced a key a top-k holds")
	}
	b.Publish(iv(8)) // then 8
	if !b.Skips(ist(0, 8)) {
		t.Fatal("a published key (no ties) skips a unit whose max equals it")
	}
	asc := &TopKBound{Col: 0, K: 2}
	asc.Seed(best)
	if k, _ := asc.Bound(); k.I != 5 {
		t.Fatalf("ASC K=2 seed = %v, want 5 (of 1, 5, 7, 9, 9)", k)
	}
	if !asc.Skips(ist(6, 9)) || asc.Skips(ist(5, 9)) {
		t.Fatal("an ASC seed skips units whose min is above it, not equal to it")
	}
	for _, b := range []*TopKBound{{Desc: true, K: 6}, {Desc: true}, nil} {
		b.Seed(best) // five keys, K = 6; no K; no bound
		if _, ok := b.Bound(); ok {
			t.Fatalf("%+v: seeded without K keys", b)
		}
	}
}
