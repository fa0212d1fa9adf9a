package executor

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

func filterOf(keys []int64) *JoinFilter {
	f := &JoinFilter{}
	f.reset(nil)
	for _, k := range keys {
		f.add(k)
	}
	f.finish()
	return f
}

// A bitmap (narrow range) and a bloom filter (wide range) never drop a key
// the build side has, and reject everything outside the range.
func TestJoinFilterNoFalseNegatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name string
		gen  func() int64
		kind string
	}{
		{"dense", func() int64 { return 1000 + rng.Int64N(50_000) }, "bitmap"},
		{"negative", func() int64 { return -rng.Int64N(1 << 20) }, "bitmap"},
		{"sparse", func() int64 { return rng.Int64() }, "bloom"},
		{"sparse negative", func() int64 { return -rng.Int64N(1 << 50) }, "bloom"},
	}
	for _, c := range cases {
		keys := make([]int64, 20_000)
		for i := range keys {
			keys[i] = c.gen()
		}
		f := filterOf(keys)
		if f.Kind() != c.kind {
			t.Errorf("%s: kind %s, want %s", c.name, f.Kind(), c.kind)
		}
		lo, hi, ok := f.Range()
		if !ok {
			t.Fatalf("%s: no range", c.name)
		}
		wantLo, wantHi := keys[0], keys[0]
		for _, k := range keys {
			wantLo, wantHi = min(wantLo, k), max(wantHi, k)
			if !f.MayContain(k) {
				t.Fatalf("%s: build key %d dropped", c.name, k)
			}
		}
		if lo != wantLo || hi != wantHi {
			t.Errorf("%s: range [%d,%d], want [%d,%d]", c.name, lo, hi, wantLo, wantHi)
		}
		if f.MayContain(lo-1) || f.MayContain(hi+1) {
			t.Errorf("%s: a key outside the range passes", c.name)
		}
	}
}

// The bloom filter's false-positive rate over absent keys stays near the
// ~1% its 16 bits per key give (bound 3%); the bitmap has none.
func TestJoinFilterFalsePositiveRate(t *testing.T) {
	// Even keys spread over a wide range: the absent odd keys in between
	// are all in range, so only the membership test can reject them.
	const n = 100_000
	keys := make([]int64, n)
	for i := range keys {
		keys[i] = int64(i) * 1_000_002
	}
	f := filterOf(keys)
	if f.Kind() != "bloom" {
		t.Fatalf("kind %s, want bloom", f.Kind())
	}
	fp := 0
	for i := range n - 1 {
		if f.MayContain(int64(i)*1_000_002 + 1 + int64(i%1000)) {
			fp++
		}
	}
	if rate := float64(fp) / n; rate > 0.03 {
		t.Errorf("bloom false-positive rate %.4f > 0.03", rate)
	}
	dense := filterOf([]int64{10, 12, 14})
	for k := int64(0); k < 30; k++ {
		want := k == 10 || k == 12 || k == 14
		if dense.MayContain(k) != want {
			t.Errorf("bitmap MayContain(%d) = %v, want %v", k, !want, want)
		}
	}
}

func TestJoinFilterEmptyAndNotReady(t *testing.T) {
	var f JoinFilter
	if f.Ready() {
		t.Fatal("a new filter is ready")
	}
	if _, _, ok := f.Range(); ok {
		t.Fatal("range of an unfilled filter")
	}
	f.finish()
	if !f.Empty() || f.MayContain(0) {
		t.Fatal("a filter over no keys must hold nothing")
	}
}

// JoinFilterOp keeps exactly the rows whose key passes (NULL keys never
// do), respects the input selection, and counts what it dropped.
func TestJoinFilterOp(t *testing.T) {
	f := filterOf([]int64{3, 5, 7})
	v := columnar.NewVector(columnar.TInt64, 8)
	for i := range 8 {
		v.Ints[i] = int64(i)
	}
	v.SetNull(5, 8) // key 5 is a build key, but NULL never matches
	b := &columnar.Batch{Cols: []*columnar.Vector{v}, Len: 8, Sel: []int{1, 3, 4, 5, 7}}
	op := &JoinFilterOp{Input: &batchesOp{batches: []*columnar.Batch{b}}, Filter: f}
	if err := op.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	out, err := op.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for k := range out.Live() {
		got = append(got, out.Row(k))
	}
	if len(got) != 2 || got[0] != 3 || got[1] != 7 {
		t.Errorf("rows %v, want [3 7]", got)
	}
	if d := f.Dropped.Load(); d != 3 {
		t.Errorf("dropped %d, want 3", d)
	}
}

// batchesOp emits fixed batches.
type batchesOp struct {
	batches []*columnar.Batch
	i       int
}

func (o *batchesOp) Types() []columnar.Type     { return []columnar.Type{columnar.TInt64} }
func (o *batchesOp) Children() []Operator       { return nil }
func (o *batchesOp) String() string             { return "batches" }
func (o *batchesOp) Open(context.Context) error { o.i = 0; return nil }
func (o *batchesOp) Close() error               { return nil }
func (o *batchesOp) Next(context.Context) (*columnar.Batch, error) {
	if o.i >= len(o.batches) {
		return nil, ioEOF
	}
	o.i++
	return o.batches[o.i-1], nil
}

// A HashJoin fills its filters from the build keys before it opens the
// probe side: depts' keys are 1, 2, 3, 2 and a NULL.
func TestHashJoinFillsFilter(t *testing.T) {
	f := &JoinFilter{Key: 0}
	probe := &openCheck{Operator: staff(2), f: f}
	j := &HashJoin{Left: probe, Right: depts(2), Kind: JoinInner, Filters: []*JoinFilter{f},
		LeftKeys:  []Expr{ColumnExpr(1, columnar.TInt64)},
		RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
	drain(t, j)
	if !probe.readyAtOpen {
		t.Fatal("the probe side opened before the filter was ready")
	}
	lo, hi, ok := f.Range()
	if !ok || lo != 1 || hi != 3 || f.Kind() != "bitmap" {
		t.Fatalf("range [%d,%d] %v %s, want [1,3] bitmap", lo, hi, ok, f.Kind())
	}
	for k, want := range map[int64]bool{0: false, 1: true, 2: true, 3: true, 4: false, 9: false} {
		if f.MayContain(k) != want {
			t.Errorf("MayContain(%d) = %v", k, !want)
		}
	}
}

// openCheck records whether f was ready when the operator was opened.
type openCheck struct {
	Operator
	f           *JoinFilter
	readyAtOpen bool
}

func (o *openCheck) Open(ctx context.Context) error {
	o.readyAtOpen = o.f.Ready()
	return o.Operator.Open(ctx)
}

// Select keeps exactly the rows whose key MayContain accepts, for the
// bitmap, the bloom filter and the empty filter, dense and sparse; the
// keys of each are set by formula (multiples of 3 in a narrow or a wide
// range), probes cover the range and beyond.
func TestJoinFilterSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name  string
		step  int64 // keys are 0, step, 2*step, ... (3000 of them)
		kind  string
		probe func() int64
	}{
		{"bitmap", 3, "bitmap", func() int64 { return rng.Int64N(10_000) - 500 }},
		{"bloom", 3 << 30, "bloom", func() int64 { return (rng.Int64N(3100) - 50) * (3 << 30) / 2 }},
		{"empty", 0, "empty", func() int64 { return rng.Int64N(100) }},
	} {
		var keys []int64
		if tc.step > 0 {
			for i := range int64(3000) {
				keys = append(keys, i*tc.step)
			}
		}
		f := filterOf(keys)
		if f.Kind() != tc.kind {
			t.Fatalf("%s: kind %s", tc.name, f.Kind())
		}
		vals := make([]int64, 2048)
		for i := range vals {
			vals[i] = tc.probe()
		}
		var want []int
		for i, x := range vals {
			if f.MayContain(x) {
				want = append(want, i)
			}
		}
		got := f.Select(vals, make([]int, len(vals)), true)
		if !slices.Equal(got, want) {
			t.Errorf("%s dense: %d rows, want %d", tc.name, len(got), len(want))
		}
		var sel, wantSparse []int
		for i := 0; i < len(vals); i += 1 + rng.IntN(3) {
			sel = append(sel, i)
			if f.MayContain(vals[i]) {
				wantSparse = append(wantSparse, i)
			}
		}
		if got := f.Select(vals, sel, false); !slices.Equal(got, wantSparse) {
			t.Errorf("%s sparse: %d rows, want %d", tc.name, len(got), len(wantSparse))
		}
		if tc.step > 0 && len(want) == 0 {
			t.Errorf("%s: no probe hit a key: the test proves nothing", tc.name)
		}
	}
}

// Once the scan applies the filter (KeySet), the op passes batches
// through untouched, and EXPLAIN says where the rows were dropped: the
// count is what the scan reported through the key set.
func TestJoinFilterOpInScan(t *testing.T) {
	f := filterOf([]int64{3, 5, 7})
	ks := f.KeySet()
	ks.Record(8, 6)
	v := columnar.NewVector(columnar.TInt64, 8)
	for i := range 8 {
		v.Ints[i] = int64(i)
	}
	b := &columnar.Batch{Cols: []*columnar.Vector{v}, Len: 8}
	op := &JoinFilterOp{Input: &batchesOp{batches: []*columnar.Batch{b}}, Filter: f}
	if err := op.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	out, err := op.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if out != b || out.Sel != nil {
		t.Errorf("batch filtered again: %v", out.Sel)
	}
	if got, want := op.String(), "JoinFilter  (range [3,7], bitmap; 6 rows dropped) in scan"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	f.reset(nil) // a new build: the next scan decides again
	if f.InScan() {
		t.Error("still in scan after reset")
	}
}

// A filter whose keys pass what the manager allows keeps their range
// alone: every build key passes, keys outside the range do not, and it
// holds nothing. Under a limit that fits them it builds its test and
// keeps it reserved until the next build.
func TestJoinFilterBounded(t *testing.T) {
	for _, tc := range []struct {
		limit int64
		kind  string
	}{{100 << 10, "range"}, {4 << 20, "bloom"}} {
		m := memory.NewManager(tc.limit, "", 0)
		f := &JoinFilter{}
		f.reset(m)
		b := columnar.NewBatch([]columnar.Type{columnar.TInt64}, columnar.MaxBatch)
		rng := rand.New(rand.NewPCG(3, 4))
		var keys []int64
		for range 64 {
			b.Len = columnar.MaxBatch
			for i := range b.Len {
				b.Cols[0].Ints[i] = rng.Int64N(1<<40) + 5
				keys = append(keys, b.Cols[0].Ints[i])
			}
			collectKeys(f, b.Cols[0], b)
		}
		f.finish()
		if f.Kind() != tc.kind {
			t.Fatalf("limit %d: kind %s, want %s", tc.limit, f.Kind(), tc.kind)
		}
		for _, k := range keys {
			if !f.MayContain(k) {
				t.Fatalf("limit %d: build key %d dropped", tc.limit, k)
			}
		}
		if f.MayContain(4) || f.MayContain(1<<40+5) {
			t.Fatalf("limit %d: a key outside the range passes", tc.limit)
		}
		sel := f.Select([]int64{4, keys[0], 1 << 41, keys[1]}, make([]int, 4), true)
		if !slices.Equal(sel, []int{1, 3}) {
			t.Fatalf("limit %d: Select kept %v", tc.limit, sel)
		}
		if held := m.Used(); (tc.kind == "range") != (held == 0) {
			t.Fatalf("limit %d: %d bytes held after finish", tc.limit, held)
		}
		f.reset(m)
		if m.Used() != 0 {
			t.Fatalf("limit %d: %d bytes held after reset", tc.limit, m.Used())
		}
	}
}
