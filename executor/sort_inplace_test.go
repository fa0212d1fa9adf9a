package executor

import (
	"cmp"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// quickSort orders like slices.Sort on inputs that defeat naive pivots
// (sorted, reversed, all equal, sawtooth, few distinct values) and on
// random ones, at sizes around its stretch size; with its depth used up it
// falls back to the merge sort and still orders.
func TestQuickSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	inputs := map[string]func(n int) []int{
		"random":   func(n int) []int { return randInts(r, n, 1<<40) },
		"few":      func(n int) []int { return randInts(r, n, 3) },
		"sorted":   func(n int) []int { return ramp(n, func(i int) int { return i }) },
		"reversed": func(n int) []int { return ramp(n, func(i int) int { return n - i }) },
		"equal":    func(n int) []int { return ramp(n, func(int) int { return 7 }) },
		"sawtooth": func(n int) []int { return ramp(n, func(i int) int { return i % 1000 }) },
		"organ":    func(n int) []int { return ramp(n, func(i int) int { return min(i, n-i) }) },
	}
	for name, gen := range inputs {
		for _, n := range []int{0, 1, 2, 7, sortRun, sortRun + 1, 5*sortRun + 3, 300_000} {
			in := gen(n)
			es, want := slices.Clone(in), slices.Clone(in)
			slices.Sort(want)
			if err := quickSort(context.Background(), es, cmp.Compare[int]); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(es, want) {
				t.Fatalf("%s n=%d: not sorted", name, n)
			}
			es = slices.Clone(in)
			if err := quickSortDepth(context.Background(), es, cmp.Compare[int], 1); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(es, want) {
				t.Fatalf("%s n=%d, depth 1: not sorted", name, n)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := quickSort(ctx, randInts(r, 3*sortRun, 100), cmp.Compare[int]); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v", err)
	}
}

func randInts(r *rand.Rand, n int, below int64) []int {
	return ramp(n, func(int) int { return int(r.Int64N(below)) })
}

func ramp(n int, f func(i int) int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// BenchmarkSortEntries sorts 2M entries with random 16-byte prefixes in
// place (quickSort) and through a buffer (mergeSort).
func BenchmarkSortEntries(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	src := make([]sortEntry, 2_000_000)
	for i := range src {
		src[i] = sortEntry{pfx0: r.Uint64() >> 40, pfx1: r.Uint64(), row: int32(i)}
	}
	by := comparePrefix
	es := make([]sortEntry, len(src))
	b.Run("quick", func(b *testing.B) {
		for b.Loop() {
			copy(es, src)
			quickSort(context.Background(), es, by)
		}
	})
	b.Run("merge", func(b *testing.B) {
		for b.Loop() {
			copy(es, src)
			mergeSort(context.Background(), es, by)
		}
	})
}
