package executor

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestMinMaxBytesWords checks the prefix-key extremes against the
// standard library's slices.MinFunc/MaxFunc under bytes.Compare, over
// values built to tie on their first eight bytes (long common prefixes),
// to end inside them (shorter than eight bytes, zero bytes that look like
// padding, empty values), with and without NULLs, at lengths around the
// 64-row validity words.
func TestMinMaxBytesWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 19))
	alphabet := []byte{0, 1, 'a', 'b', 0xff}
	value := func() []byte {
		var b []byte
		if rng.IntN(3) == 0 {
			b = append(b, "prefix!!"...) // ties on the key
		}
		for range rng.IntN(12) {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
		return b
	}
	for _, n := range []int{1, 2, 7, 63, 64, 65, 200, 1000} {
		for round := range 20 {
			in := make([][]byte, n)
			for i := range in {
				in[i] = value()
			}
			var valid columnar.Bitmap
			live := in
			if round%2 == 1 {
				valid = valid.Resize(n)
				live = nil
				for i := range in {
					if rng.IntN(4) == 0 {
						valid.Clear(i)
					} else {
						live = append(live, in[i])
					}
				}
			}
			for _, isMin := range []bool{true, false} {
				v, c := minMaxBytesWords(in, valid, isMin)
				if c != len(live) {
					t.Fatalf("n=%d: %d values counted, want %d", n, c, len(live))
				}
				if len(live) == 0 {
					continue
				}
				want := slices.MinFunc(live, bytes.Compare)
				if !isMin {
					want = slices.MaxFunc(live, bytes.Compare)
				}
				if !bytes.Equal(v, want) {
					t.Fatalf("n=%d isMin=%v: %q, want %q", n, isMin, v, want)
				}
			}
		}
	}
}
