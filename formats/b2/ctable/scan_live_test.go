package ctable

import (
	"math/rand/v2"
	"testing"
)

// TestLiveRows counts masks of every length up to 40 with runs of 1s,
// deleted rows and nonzero bytes other than 1, against a plain count.
func TestLiveRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 40; n++ {
		for rep := 0; rep < 50; rep++ {
			m := make([]byte, n)
			want := 0
			for i := range m {
				switch r := rng.IntN(10); {
				case r < 7 || rep == 0:
					m[i] = 1
				case r < 9:
					m[i] = 0
				default:
					m[i] = byte(2 + rng.IntN(254))
				}
				if m[i] != 0 {
					want++
				}
			}
			if got := liveRows(m); got != want {
				t.Fatalf("liveRows(%v) = %d, want %d", m, got, want)
			}
		}
	}
}
