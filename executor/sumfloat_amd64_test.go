//go:build !purego

package executor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSumDense4Vec: the vector TwoSum chains give bit for bit the sums and
// compensations of the Go loop (any NaN for a NaN: which operand's payload
// an x86 add passes on depends on the operand order the compiler picked), for every length (the tail of fewer than 4
// goes to the Go loop) and for values that cancel, overflow, are NaN,
// infinite, signed zeros or subnormal.
func TestSumDense4Vec(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX on this CPU")
	}
	rng := rand.New(rand.NewPCG(1, 19))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324, -2.5e-308, math.MaxFloat64, 1e16, -1e16, 1, 0.1}
	for trial := 0; trial < 400; trial++ {
		n := rng.IntN(300)
		xs := make([]float64, n)
		for i := range xs {
			switch k := rng.IntN(10); {
			case k == 0 && trial%4 == 0:
				xs[i] = special[rng.IntN(len(special))]
			case k < 5:
				xs[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			default:
				xs[i] = float64(rng.IntN(1000)) * 0.25
			}
		}
		var s0, c0 [4]float64
		for k := range s0 {
			s0[k], c0[k] = rng.Float64()*1e6, rng.Float64()*1e-12
		}
		sv, cv := s0, c0
		sumDense4(xs, &sv, &cv)
		useAVX = false
		sg, cg := s0, c0
		sumDense4(xs, &sg, &cg)
		useAVX = true
		for k := range 4 {
			if !sameFloat(sv[k], sg[k]) || !sameFloat(cv[k], cg[k]) {
				t.Fatalf("trial %d, n=%d, chain %d: vector (%v, %v), Go (%v, %v)", trial, n, k, sv[k], cv[k], sg[k], cg[k])
			}
		}
	}
}

func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// BenchmarkSumDense4 compares the Go loop with the vector chains over one
// batch of 8192 values.
func BenchmarkSumDense4(b *testing.B) {
	xs := make([]float64, 8192)
	for i := range xs {
		xs[i] = float64(i%1000) * 0.25
	}
	for _, vec := range []bool{false, true} {
		name := map[bool]string{false: "go", true: "avx"}[vec]
		b.Run(name, func(b *testing.B) {
			if vec && !useAVX {
				b.Skip("no AVX")
			}
			saved := useAVX
			useAVX = vec
			defer func() { useAVX = saved }()
			var s, c [4]float64
			b.SetBytes(int64(8 * len(xs)))
			for b.Loop() {
				sumDense4(xs, &s, &c)
			}
		})
	}
}
