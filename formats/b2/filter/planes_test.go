package filter

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestUnshufflePlanes puts the planes of random blocks at scattered places
// of one buffer (in shuffled order, with gaps, so that some lie before
// plane 0) and requires the bytes Unshuffle gives for the planes side by
// side, and the definition dst[i*w+k] = planes[k][i], with the vector
// kernels and without.
func TestUnshufflePlanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, avx := range []bool{true, false} {
		old := SetAVX2(avx)
		for _, w := range []int{1, 2, 3, 4, 8, 16} {
			for _, m := range []int{0, 1, 31, 32, 33, 64, 100, 8192, 20000} {
				if m == 0 && w > 0 {
					continue
				}
				together := make([]byte, w*m)
				for i := range together {
					together[i] = byte(rng.Uint32())
				}
				want := make([]byte, w*m)
				Unshuffle(want, together, w)
				for i := 0; i < m; i++ {
					for k := 0; k < w; k++ {
						if want[i*w+k] != together[k*m+i] {
							t.Fatalf("Unshuffle w=%d m=%d: element %d byte %d", w, m, i, k)
						}
					}
				}
				// Scatter: plane order by a permutation, 0-63 bytes apart.
				arena := make([]byte, w*(m+64))
				planes := make([][]byte, w)
				pos := 0
				for _, k := range rng.Perm(w) {
					pos += rng.IntN(64 / max(w/4, 1))
					planes[k] = arena[pos : pos+m : pos+m]
					copy(planes[k], together[k*m:(k+1)*m])
					pos += m
				}
				got := make([]byte, w*m+5)
				got[w*m] = 0xEE
				UnshufflePlanes(got, planes)
				if !bytes.Equal(got[:w*m], want) {
					t.Fatalf("avx2=%v w=%d m=%d: planes apart differ from Unshuffle", avx, w, m)
				}
				if got[w*m] != 0xEE {
					t.Fatalf("avx2=%v w=%d m=%d: wrote past the block", avx, w, m)
				}
			}
		}
		SetAVX2(old)
	}
}
