package columnar

import (
	"math/rand/v2"
	"testing"
)

// TestAvgFloatFastMatchesBig: the integer fast path rounds exactly as the
// big.Float emulation of the long double does.
func TestAvgFloatFastMatchesBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		var sum Int128
		switch i % 4 {
		case 0:
			sum = Int128Of(r.Int64N(1 << 20))
		case 1:
			sum = Int128Of(r.Int64() >> r.IntN(60))
		case 2:
			sum = Int128{Lo: r.Uint64()}
		default:
			sum, _ = Int128{}.Sub(Int128{Lo: r.Uint64()>>r.IntN(63) | 1})
		}
		count := 1 + r.Int64N(1<<r.IntN(40))
		s := r.IntN(20)
		fast, ok := avgExtendedFast(sum, count, s)
		if !ok {
			continue
		}
		if slow := avgExtendedBig(sum, count, duckPow10(s)); fast != slow {
			t.Fatalf("sum %v count %d scale %d: fast %v, big %v", sum.Big(), count, s, fast, slow)
		}
	}
}

// TestAvgFloatKnown: DuckDB 1.5's answers (duck -c), including ones where
// its long double rounds twice.
func TestAvgFloatKnown(t *testing.T) {
	for _, c := range []struct {
		sum    int64
		count  int64
		scale  int
		narrow bool
		want   float64
	}{
		{5001, 3, 3, false, 1.667},
		{5002, 3, 3, false, 1.6673333333333333},
		{-1, 3, 0, true, -0.3333333333333333},
	} {
		if got := AvgFloat(Int128Of(c.sum), c.count, c.scale, c.narrow); got != c.want {
			t.Errorf("AvgFloat(%d, %d, %d) = %v, want %v", c.sum, c.count, c.scale, got, c.want)
		}
	}
}
