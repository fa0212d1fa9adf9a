package hashtab

import (
	"math/rand/v2"
	"testing"
)

// TestKeyTable checks find against a Go map on keys that collide in their
// low words, through several grows.
func TestKeyTable(t *testing.T) {
	for _, w := range []int{1, 2, 3, 5} {
		tab := newKeyTable(w)
		ref := map[[5]uint64]int32{}
		rng := rand.New(rand.NewPCG(1, uint64(w)))
		key := make([]uint64, w)
		for i := 0; i < 20000; i++ {
			for j := range key {
				key[j] = uint64(rng.IntN(40)) << (j * 13) // few distinct words: many repeats
			}
			var k [5]uint64
			copy(k[:], key)
			want, seen := ref[k]
			if !seen {
				want = int32(len(ref))
				ref[k] = want
			}
			created := false
			got := tab.find(key, hashWords(key), func() int32 { created = true; return int32(len(ref) - 1) })
			if got != want || created == seen {
				t.Fatalf("w=%d row %d: got group %d (created %v), want %d (new %v)", w, i, got, created, want, !seen)
			}
		}
		if tab.n != len(ref) {
			t.Fatalf("w=%d: %d keys, want %d", w, tab.n, len(ref))
		}
	}
}

// BenchmarkKeyTable groups pairs of integer keys (TPC-H Q20's
// (l_partkey, l_suppkey)): rows/s for a table of 1M distinct pairs, each
// seen 4 times in random order.
func BenchmarkKeyTable(b *testing.B) {
	const groups = 1 << 20
	rows := make([][3]uint64, 4*groups)
	for i := range rows {
		g := uint64(i % groups)
		rows[i] = [3]uint64{0, 1 + g/4, 1 + (g*7919)%10000}
	}
	rand.New(rand.NewPCG(2, 3)).Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	b.ReportAllocs()
	for b.Loop() {
		tab := newKeyTable(3)
		next := int32(0)
		create := func() int32 { next++; return next - 1 }
		for i := range rows {
			k := rows[i][:]
			tab.find(k, hashWords(k), create)
		}
	}
	b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
}

// TestIntKeyTable checks find and lookup against a Go map, over sequential, negative
// and far-apart keys, through several grows.
func TestIntKeyTable(t *testing.T) {
	tab := newIntKeyTable(256, 3)
	ref := map[int64]int32{}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 50000; i++ {
		var v int64
		switch i % 3 {
		case 0:
			v = int64(i / 3) // sequential
		case 1:
			v = -int64(rng.IntN(1000)) // negative, repeated
		default:
			v = int64(rng.Uint64()) // anywhere
		}
		want, seen := ref[v]
		if !seen {
			want = int32(len(ref))
			ref[v] = want
		}
		created := false
		got := tab.find(v, func() int32 { created = true; return want })
		if got != want || created == seen {
			t.Fatalf("key %d: got group %d (created %v), want %d (new %v)", v, got, created, want, !seen)
		}
	}
	for v, g := range ref {
		if got, ok := tab.lookup(v); !ok || got != g {
			t.Fatalf("lookup: key %d has group %d (%v), want %d", v, got, ok, g)
		}
	}
	for _, v := range []int64{1 << 40, -5000, 1<<62 + 3} {
		if _, seen := ref[v]; !seen {
			if g, ok := tab.lookup(v); ok {
				t.Fatalf("lookup: absent key %d has group %d", v, g)
			}
		}
	}
}
