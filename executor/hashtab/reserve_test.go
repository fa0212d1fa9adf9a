package hashtab

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// Reserving keeps the keys a string Map holds, and the keys that come
// after fit without the table doubling.
func TestReserveStrings(t *testing.T) {
	types := []columnar.Type{columnar.TVarchar}
	m := New(types)
	batch := func(from, to int) *columnar.Batch {
		b := columnar.NewBatch(types, to-from)
		b.Len = to - from
		for i := from; i < to; i++ {
			// short keys in the slot, long ones in the arena
			b.Cols[0].Bytes[i-from] = []byte(fmt.Sprintf("key-%d%s", i, map[bool]string{true: "-with-a-tail-past-16-bytes"}[i%3 == 0]))
		}
		return b
	}
	gids := make([]int32, 1000)
	m.Assign(batch(0, 1000), batch(0, 1000).Cols, gids)
	Reserve(m, Expect{Keys: 20_000})
	slots := len(m.(*strMap).tab.slots)
	if want := strSlotsFor(20_000); slots != want {
		t.Fatalf("reserved %d slots, want %d", slots, want)
	}
	for lo := 0; lo < 20_000; lo += 1000 {
		b := batch(lo, lo+1000)
		m.Assign(b, b.Cols, gids)
		for i, g := range gids {
			if int(g) != lo+i {
				t.Fatalf("key %d got id %d", lo+i, g)
			}
		}
	}
	if got := len(m.(*strMap).tab.slots); got != slots {
		t.Errorf("the table grew from %d to %d slots after reserving", slots, got)
	}
	if m.Len() != 20_000 {
		t.Errorf("%d ids for 20000 keys", m.Len())
	}
	out := []*columnar.Vector{columnar.NewVector(columnar.TVarchar, 0)}
	m.Keys(out, 999, 1001)
	if string(out[0].Bytes[0]) != "key-999-with-a-tail-past-16-bytes" || string(out[0].Bytes[1]) != "key-1000" {
		t.Errorf("keys 999, 1000 read back as %q, %q", out[0].Bytes[0], out[0].Bytes[1])
	}
	if ReserveBytes(m, Expect{Keys: 20_000}) != 0 {
		t.Errorf("reserving what is there allocates %d bytes", ReserveBytes(m, Expect{Keys: 20_000}))
	}
	// Other kinds take no reservation.
	if ReserveBytes(New([]columnar.Type{columnar.TInt64}), Expect{Keys: 20_000}) != 0 {
		t.Errorf("an integer Map with no key range reports a reservation")
	}
}

// An integer Map told the range of its keys starts its direct table
// there and covers the range at once; keys below, above and far from the
// range, negative keys, the extremes and NULL still get one id each, in
// the order first seen (a Go map numbering the same keys is the oracle),
// and read back and are found as they were given.
func TestReserveIntRange(t *testing.T) {
	const lo, hi = 5_000_000, 5_009_999
	types := []columnar.Type{columnar.TInt64}
	m := New(types)
	e := Expect{Keys: 1000, Ranged: true, Lo: lo, Hi: hi}
	if got := ReserveBytes(m, e); got != 4*10_000 {
		t.Fatalf("ReserveBytes = %d, want %d (a slot per key of the range)", got, 4*10_000)
	}
	Reserve(m, e)
	im := m.(*intMap)
	ig := im.ig
	if im.base != lo || ig.dense.n < 10_000 {
		t.Fatalf("direct table at %d covering %d keys, want at %d covering 10000", im.base, ig.dense.n, lo)
	}
	specials := []int64{0, 1, -5, lo - 1, lo - 16, hi + 1, hi + 1_000_000, lo + 20_000_000,
		math.MinInt64, math.MaxInt64, math.MinInt64 + lo, lo + denseKeys, lo - denseKeys}
	var keys []int64
	var nulls []bool
	for i := range 30_000 {
		switch {
		case i%97 == 0:
			keys, nulls = append(keys, 0), append(nulls, true)
		case i%31 == 0:
			keys, nulls = append(keys, specials[(i/31)%len(specials)]), append(nulls, false)
		default:
			keys, nulls = append(keys, lo+int64((i*7919)%10_000)), append(nulls, false)
		}
	}
	want := map[int64]int32{}
	nullID := int32(-1)
	next := int32(0)
	for i, k := range keys {
		if nulls[i] {
			if nullID < 0 {
				nullID, next = next, next+1
			}
			continue
		}
		if _, ok := want[k]; !ok {
			want[k], next = next, next+1
		}
	}
	const bs = 1000
	gids := make([]int32, bs)
	for from := 0; from < len(keys); from += bs {
		b := columnar.NewBatch(types, bs)
		b.Len = bs
		for i := range bs {
			if nulls[from+i] {
				b.Cols[0].SetNull(i, bs)
			} else {
				b.Cols[0].Ints[i] = keys[from+i]
			}
		}
		m.Assign(b, b.Cols, gids)
		for i, g := range gids {
			w := nullID
			if !nulls[from+i] {
				w = want[keys[from+i]]
			}
			if g != w {
				t.Fatalf("row %d (key %d, null %v): id %d, want %d", from+i, keys[from+i], nulls[from+i], g, w)
			}
		}
	}
	if m.Len() != int(next) {
		t.Fatalf("%d ids, want %d", m.Len(), next)
	}
	out := []*columnar.Vector{columnar.NewVector(columnar.TInt64, 0)}
	m.Keys(out, 0, m.Len())
	for k, g := range want {
		if out[0].IsNull(int(g)) || out[0].Ints[g] != k {
			t.Fatalf("id %d reads back as %d, want %d", g, out[0].Ints[g], k)
		}
	}
	if !out[0].IsNull(int(nullID)) {
		t.Fatalf("the NULL key's id %d reads back as %d", nullID, out[0].Ints[nullID])
	}
	// Find: every key given, and keys never given (in the range, below and
	// above it) find nothing.
	probe := append(append([]int64{}, specials...), lo+3, hi, lo-2, hi+2, 7, -lo)
	b := columnar.NewBatch(types, len(probe))
	b.Len = len(probe)
	copy(b.Cols[0].Ints, probe)
	found := make([]int32, len(probe))
	m.Find(b, b.Cols, found)
	for i, k := range probe {
		w, ok := want[k]
		if !ok {
			w = -1
		}
		if found[i] != w {
			t.Errorf("Find(%d) = %d, want %d", k, found[i], w)
		}
	}
	if ig.dense.n > 16*10_000 {
		t.Errorf("the direct table grew to %d slots for keys the hash table holds", ig.dense.n)
	}
}

// A range too sparse for its keys places the direct table but does not
// cover it ahead; one wider than any direct table leaves it at 0.
func TestReserveIntRangeSparse(t *testing.T) {
	m := New([]columnar.Type{columnar.TInt64})
	e := Expect{Keys: 10, Ranged: true, Lo: -1_000_000, Hi: 0}
	if got := ReserveBytes(m, e); got != 0 {
		t.Errorf("a sparse range reserves %d bytes", got)
	}
	Reserve(m, e)
	if im := m.(*intMap); im.base != -1_000_000 || im.ig.dense.n != 0 {
		t.Errorf("sparse range: table at %d covering %d, want at -1000000 covering nothing yet", im.base, im.ig.dense.n)
	}
	m = New([]columnar.Type{columnar.TInt64})
	Reserve(m, Expect{Keys: 1 << 30, Ranged: true, Lo: 1, Hi: 1 + denseKeys})
	if im := m.(*intMap); im.base != 0 || im.ig.dense.n != 0 {
		t.Errorf("range wider than denseKeys: table at %d covering %d", im.base, im.ig.dense.n)
	}
}

// KeySample takes keys at even steps over the ids, leaves the NULL key
// out, and gives nil for other kinds of Map.
func TestKeySample(t *testing.T) {
	types := []columnar.Type{columnar.TInt64}
	m := New(types)
	b := columnar.NewBatch(types, 1000)
	b.Len = 1000
	for i := range 1000 {
		b.Cols[0].Ints[i] = int64(1000 - i) // ids 0..999 hold keys 1000..1
	}
	b.Cols[0].SetNull(100, 1000) // id 100 is the NULL key
	gids := make([]int32, 1000)
	m.Assign(b, b.Cols, gids)
	got := KeySample(m, 10) // ids 0, 100 (NULL: left out), 200, …, 900
	want := []int64{1000, 800, 700, 600, 500, 400, 300, 200, 100}
	if !slices.Equal(got, want) {
		t.Errorf("KeySample = %v, want %v", got, want)
	}
	if s := KeySample(New([]columnar.Type{columnar.TVarchar}), 10); s != nil {
		t.Errorf("a string Map gave a sample %v", s)
	}
	if s := KeySample(New(types), 10); s != nil {
		t.Errorf("an empty Map gave a sample %v", s)
	}
}

// An integer Map whose keys fall past the direct table (Hashed) gets its
// hash table made for them: ReserveBytes is what Reserve allocates, the
// keys then fit without doubling, and each gets the next id.
func TestReserveHashed(t *testing.T) {
	m := New([]columnar.Type{columnar.TInt64})
	e := Expect{Keys: 5000, Hashed: true}
	before := m.Bytes()
	want := ReserveBytes(m, e)
	Reserve(m, e)
	ints := m.(*intMap).ig.ints
	if got := m.Bytes() - before; got != want || want == 0 {
		t.Fatalf("Reserve allocated %d bytes, ReserveBytes said %d", got, want)
	}
	// 5000 keys below 3/4 of the slots: 8192 slots (6144 before doubling).
	if len(ints.slots) != 8192 {
		t.Fatalf("reserved %d slots for 5000 keys, want 8192", len(ints.slots))
	}
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64}, 1000)
	b.Len = 1000
	gids := make([]int32, 1000)
	for lo := 0; lo < 5000; lo += 1000 {
		for i := range b.Cols[0].Ints {
			b.Cols[0].Ints[i] = int64(lo+i)<<40 | 7 // far past any direct table
		}
		m.Assign(b, b.Cols, gids)
		for i, g := range gids {
			if int(g) != lo+i {
				t.Fatalf("key %d got id %d", lo+i, g)
			}
		}
	}
	if len(ints.slots) != 8192 {
		t.Errorf("the table grew to %d slots after reserving for its keys", len(ints.slots))
	}
	if ReserveBytes(m, e) != 0 {
		t.Errorf("a Map holding keys reports a reservation")
	}
}
