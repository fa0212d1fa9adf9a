package executor

import (
	"math/rand/v2"
	"testing"
)

// orderKeys returns n keys shaped like TPC-H's o_orderkey over [1, 6M]:
// runs of 8 consecutive keys every 32, a random subset of them.
func orderKeys(rng *rand.Rand, n int) []int64 {
	keys := make([]int64, n)
	for i := range keys {
		j := rng.Int64N(6_000_000 / 4)
		keys[i] = j/8*32 + j%8 + 1
	}
	return keys
}

// The test chosen for a range follows the sizes: a bitmap whenever it is
// at most bitmapPerBloom times the bloom filter (TPC-H Q3's and Q10's
// orders keys over a 6M-wide range, 146k and 57k keys: 750 KiB against a
// 512 or 128 KiB bloom filter), a bloom filter for few keys over the same
// range (Q18's 2k keys: a 4 KiB filter), a bitmap for any range under
// bitmapLimit.
func TestJoinFilterKindBySize(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		n    int
		kind string
	}{{146_000, "bitmap"}, {57_000, "bitmap"}, {20_000, "bloom"}, {2_000, "bloom"}} {
		keys := orderKeys(rng, c.n)
		keys = append(keys, 1, 6_000_000) // the whole range
		f := filterOf(keys)
		if f.Kind() != c.kind {
			t.Errorf("%d keys over 6M: kind %s, want %s", c.n, f.Kind(), c.kind)
		}
		for _, k := range keys {
			if !f.MayContain(k) {
				t.Fatalf("%d keys: build key %d dropped", c.n, k)
			}
		}
	}
	// Under bitmapLimit a single key pair still makes a bitmap.
	if f := filterOf([]int64{0, bitmapLimit - 1}); f.Kind() != "bitmap" {
		t.Errorf("range below bitmapLimit: kind %s, want bitmap", f.Kind())
	}
	// bloomWords: 16 bits a key rounded up to a power of two words.
	for _, c := range [][2]int{{0, 1}, {1, 1}, {4, 1}, {5, 2}, {57_000, 16384}, {146_000, 65536}} {
		if got := bloomWords(c[0]); got != c[1] {
			t.Errorf("bloomWords(%d) = %d, want %d", c[0], got, c[1])
		}
	}
}

// The bloom filter's false-positive rate stays near the ~0.5-1% of 16
// bits per key whatever the keys' shape: consecutive, on a stride, in
// runs (order keys), random, negative. A multiplicative hash keeps these
// apart only through its high bits, which is where slot takes the word
// and the bit positions from.
func TestBloomFalsePositivesByShape(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	shapes := []struct {
		name string
		key  func(i int) int64
	}{
		{"consecutive", func(i int) int64 { return int64(i) }},
		{"stride 32", func(i int) int64 { return int64(i) * 32 }},
		{"runs of 8 every 32", func(i int) int64 { return int64(i/8)*32 + int64(i%8) }},
		{"stride 2^20", func(i int) int64 { return int64(i) << 20 }},
		{"random", func(int) int64 { return rng.Int64N(1 << 40) }},
		{"negative", func(i int) int64 { return -int64(i) * 7 }},
	}
	for _, n := range []int{1000, 60_000, 500_000} {
		for _, s := range shapes {
			b := newBlockedBloom(n)
			keys := make(map[int64]bool, n)
			lo, hi := s.key(0), s.key(0)
			for i := range n {
				k := s.key(i)
				keys[k] = true
				b.add(k)
				lo, hi = min(lo, k), max(hi, k)
			}
			for k := range keys {
				if !b.has(k) {
					t.Fatalf("%s n=%d: key %d missing", s.name, n, k)
				}
			}
			// Absent keys from the range and as far again above it (the
			// consecutive keys leave no gap inside theirs).
			fp, tried := 0, 0
			for tried < 200_000 {
				k := lo + rng.Int64N(2*(hi-lo)+2)
				if keys[k] {
					continue
				}
				tried++
				if b.has(k) {
					fp++
				}
			}
			if rate := float64(fp) / float64(tried); rate > 0.02 {
				t.Errorf("%s n=%d: false-positive rate %.4f > 0.02", s.name, n, rate)
			}
		}
	}
}

// BenchmarkJoinFilterSelect tests 1M probe keys, in order (a probe side
// clustered on the key) or random, against the orders keys of TPC-H Q10
// (57k) and Q3 (146k) as a bitmap or a bloom filter.
func BenchmarkJoinFilterSelect(b *testing.B) {
	for _, n := range []int{57_000, 146_000} {
		for _, kind := range []string{"bitmap", "bloom"} {
			for _, order := range []string{"sorted", "random"} {
				b.Run(kind+"/"+order+"/"+itoa(int64(n)), func(b *testing.B) {
					rng := rand.New(rand.NewPCG(1, 2))
					f := filterOf(append(orderKeys(rng, n), 1, 6_000_000))
					if kind == "bloom" && f.bitmap != nil {
						bloom := newBlockedBloom(n)
						for k := int64(1); k <= 6_000_000; k++ {
							if f.MayContain(k) {
								bloom.add(k)
							}
						}
						f.bitmap, f.bloom = nil, bloom
					}
					vals := make([]int64, 1<<20)
					for i := range vals {
						if order == "sorted" {
							vals[i] = 1 + int64(i)*6_000_000/int64(len(vals))
						} else {
							vals[i] = 1 + rng.Int64N(6_000_000)
						}
					}
					sel := make([]int, 2048)
					b.ResetTimer()
					for range b.N {
						for off := 0; off+2048 <= len(vals); off += 2048 {
							f.Select(vals[off:off+2048], sel, true)
						}
					}
				})
			}
		}
	}
}
