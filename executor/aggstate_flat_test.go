package executor

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// The single-group kernels against sums computed exactly (big.Float) and
// extrema found by a plain loop, over validity patterns that mix full,
// empty and partial words and a tail shorter than a word.
func TestFlatKernels(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 3, 63, 64, 65, 200, 1024, 1027} {
		for pat := 0; pat < 4; pat++ {
			fl := make([]float64, n)
			in := make([]int64, n)
			var valid columnar.Bitmap
			if pat > 0 {
				valid = make(columnar.Bitmap, (n+63)/64)
			}
			for i := range fl {
				fl[i] = (r.Float64() - 0.5) * math.Pow(10, float64(r.Intn(30)))
				in[i] = r.Int63n(2000) - 1000
				ok := pat == 0 || pat == 1 && i%64 < 32 || pat == 2 && r.Intn(3) > 0 || pat == 3 && i >= 64 && i < 128
				if pat > 0 {
					valid.SetTo(i, ok)
				}
			}
			if pat > 0 && n%64 != 0 {
				valid[len(valid)-1] |= ^uint64(0) << uint(n%64) // garbage past n must be ignored
			}
			exact := new(big.Float).SetPrec(2000)
			var isum int64
			cnt := 0
			imin, imax := int64(math.MaxInt64), int64(math.MinInt64)
			for i := 0; i < n; i++ {
				if valid.Get(i) {
					exact.Add(exact, new(big.Float).SetPrec(2000).SetFloat64(fl[i]))
					isum += in[i]
					imin, imax = min(imin, in[i]), max(imax, in[i])
					cnt++
				}
			}
			want, _ := exact.Float64()
			s, c, k := sumFloatsWords(fl, valid)
			if got := s + c; got != want || k != cnt {
				t.Errorf("n=%d pat=%d: float sum %v (%d rows), exact %v (%d)", n, pat, got, k, want, cnt)
			}
			if got, k, ok := sumIntsWords(in, valid); got != isum || k != cnt || !ok {
				t.Errorf("n=%d pat=%d: int sum %d %d %v, want %d %d", n, pat, got, k, ok, isum, cnt)
			}
			if cnt > 0 {
				if v, k := minMaxIntsWords(in, valid, true); v != imin || k != cnt {
					t.Errorf("n=%d pat=%d: min %d, want %d", n, pat, v, imin)
				}
				if v, _ := minMaxIntsWords(in, valid, false); v != imax {
					t.Errorf("n=%d pat=%d: max %d, want %d", n, pat, v, imax)
				}
			}
			if k := countValid(valid, n); k != cnt {
				t.Errorf("n=%d pat=%d: count %d, want %d", n, pat, k, cnt)
			}
		}
	}
	if _, _, ok := sumIntsWords([]int64{math.MaxInt64, 1}, nil); ok {
		t.Error("MaxInt64+1 did not report overflow")
	}
	if _, _, ok := sumIntsWords([]int64{math.MaxInt64, 0, 0, 0, 1}, nil); ok {
		t.Error("overflow in the lane fold not reported")
	}
}

// BenchmarkSumFloats is the dense compensated float sum of SUM(DOUBLE)
// without NULLs, per 8192-row batch.
func BenchmarkSumFloats(b *testing.B) {
	xs := make([]float64, 8192)
	for i := range xs {
		xs[i] = float64(i%1000) * 0.01
	}
	b.SetBytes(8 * int64(len(xs)))
	for b.Loop() {
		sumFloatsWords(xs, nil)
	}
}

// BenchmarkSumInts is the dense checked integer sum of SUM(INTEGER)
// without NULLs and with a validity bitmap of full words, per 1024-row
// batch.
func BenchmarkSumInts(b *testing.B) {
	xs := make([]int64, columnar.MaxBatch)
	for i := range xs {
		xs[i] = int64(i%1000) - 300
	}
	full := make(columnar.Bitmap, len(xs)/64)
	for i := range full {
		full[i] = ^uint64(0)
	}
	for _, tc := range []struct {
		name  string
		valid columnar.Bitmap
	}{{"nulls=false", nil}, {"nulls=words", full}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(8 * int64(len(xs)))
			for b.Loop() {
				sumIntsWords(xs, tc.valid)
			}
		})
	}
}

// TestMinMaxFloatsWords checks the float extremes against a per-row fold
// in CompareFloat's order (NaN greatest, the first of equal values kept,
// so that -0 and 0 come out as the row that came first), with and
// without NULLs, for values that include NaN, ±Inf and both zeros.
func TestMinMaxFloatsWords(t *testing.T) {
	rng := rand.New(rand.NewSource(78))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}
	for _, n := range []int{1, 3, 64, 65, 200, 2048} {
		for pat := range 6 {
			in := make([]float64, n)
			for i := range in {
				in[i] = rng.Float64()*200 - 100
				switch pat {
				case 1: // specials here and there
					if rng.Intn(20) == 0 {
						in[i] = specials[rng.Intn(len(specials))]
					}
				case 2: // zeros of both signs are the extremes
					in[i] = math.Abs(in[i])
					if rng.Intn(3) == 0 {
						in[i] = specials[3+rng.Intn(2)]
					}
				case 3: // all NaN
					in[i] = math.NaN()
				}
			}
			var valid columnar.Bitmap
			if pat >= 4 {
				valid = columnar.NewBitmap(n)
				for i := range n {
					if rng.Intn(pat-2) != 0 {
						valid.Set(i)
					}
				}
				if pat == 5 && n > 64 {
					for i := 64; i < 128 && i < n; i++ {
						valid.Set(i) // a full word
					}
				}
			}
			for _, isMin := range []bool{true, false} {
				var want float64
				cnt := 0
				for i, x := range in {
					if valid != nil && !valid.Get(i) {
						continue
					}
					if c := columnar.CompareFloat(x, want); cnt == 0 || c != 0 && (c < 0) == isMin {
						want = x
					}
					cnt++
				}
				got, k := minMaxFloatsWords(in, valid, isMin)
				same := got == want && math.Signbit(got) == math.Signbit(want) || got != got && want != want
				if k != cnt || cnt > 0 && !same {
					t.Errorf("n=%d pat=%d min=%v: %v (%d rows), want %v (%d)", n, pat, isMin, got, k, want, cnt)
				}
			}
		}
	}
}
