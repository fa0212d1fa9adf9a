package columnar

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactFloat is the float64 nearest to a / 10^s, by math/big: the
// quotient exact as a rational, rounded once.
func exactFloat(a Int128, s int) float64 {
	r := new(big.Rat).SetFrac(a.Big(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil))
	f, _ := r.Float64()
	return f
}

func TestWideDecimalFloat(t *testing.T) {
	minI := Int128{Hi: math.MinInt64}
	maxI := Int128{Hi: math.MaxInt64, Lo: math.MaxUint64}
	cases := []struct {
		a    Int128
		s    int
		want float64
	}{
		{Int128Of(0), 0, 0},
		{Int128Of(41000000000000003), 17, 0.41000000000000003},
		{Int128Of(-125), 2, -1.25},
		// 10^19 = 0x8AC7230489E80000, just past int64.
		{Int128{Hi: 0, Lo: 10000000000000000000}, 19, 1},
		{Int128{Hi: -1, Lo: math.MaxUint64 - 10000000000000000000 + 1}, 19, -1},
		{minI, 0, -math.Pow(2, 127)},
		{maxI, 0, math.Pow(2, 127)},
		{minI, 38, -1.7014118346046923},
	}
	for _, c := range cases {
		if got := WideDecimalFloat(c.a, c.s); got != c.want {
			t.Errorf("WideDecimalFloat(%v, %d) = %v, want %v", c.a.Big(), c.s, got, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		a := Int128{Hi: int64(rng.Uint64()) >> rng.IntN(64), Lo: rng.Uint64()}
		if rng.IntN(2) == 0 {
			a = Int128Of(int64(rng.Uint64()) >> rng.IntN(64))
		}
		s := rng.IntN(39)
		if got, want := WideDecimalFloat(a, s), exactFloat(a, s); got != want {
			t.Fatalf("WideDecimalFloat(%v, %d) = %v, want %v", a.Big(), s, got, want)
		}
		if a.IsInt64() {
			if got, want := DecimalFloat(int64(a.Lo), s), exactFloat(a, s); got != want {
				t.Fatalf("DecimalFloat(%d, %d) = %v, want %v", int64(a.Lo), s, got, want)
			}
		}
	}
}

// TestWideDecimalFloatAllocs: the conversion a per-row cast makes
// allocates nothing.
func TestWideDecimalFloatAllocs(t *testing.T) {
	a := Int128{Hi: 3, Lo: 12345}
	if n := testing.AllocsPerRun(100, func() { _ = WideDecimalFloat(a, 12) }); n != 0 {
		t.Errorf("%v allocations per conversion, want 0", n)
	}
}
