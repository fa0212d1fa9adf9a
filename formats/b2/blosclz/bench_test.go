package blosclz_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/blosclz"
)

const benchBlock = 256 << 10

// shuffledFloats returns a 256 KiB block of normal-distributed float64
// (mean 100, sd 10) rounded by round, byte-shuffled with typesize 8 as
// blosc2's SHUFFLE filter leaves it (written out here so the benchmark does
// not depend on the filter package).
func shuffledFloats(round func(float64) float64) []byte {
	rng := rand.New(rand.NewPCG(3, 4))
	const m = benchBlock / 8
	out := make([]byte, benchBlock)
	for i := range m {
		bits := math.Float64bits(round(rng.NormFloat64()*10 + 100))
		for j := range 8 {
			out[j*m+i] = byte(bits >> (8 * j))
		}
	}
	return out
}

func BenchmarkDecompress(b *testing.B) {
	cases := []struct {
		name  string
		round func(float64) float64
	}{
		// Full float64 precision: the low mantissa planes are noise.
		{"f64norm", func(x float64) float64 { return x }},
		// Values with 2 decimals, like prices or sensor readings.
		{"f64norm2dec", func(x float64) float64 { return math.Round(x*100) / 100 }},
		// float32-precision values stored as float64: 4 planes of zeros.
		{"f64norm32", func(x float64) float64 { return float64(float32(x)) }},
	}
	for _, tc := range cases {
		src := shuffledFloats(tc.round)
		// One stream per block (blosc2's dont_split layout).
		b.Run(tc.name+"/block", func(b *testing.B) {
			comp := make([]byte, len(src))
			n := blosclz.Compress(comp, src, 9)
			if n == 0 {
				b.Skip("not compressible at clevel 9")
			}
			benchDecode(b, [][]byte{comp[:n]}, []int{len(src)})
		})
		// One stream per byte plane (blosc2's split layout); planes that do
		// not compress would be stored raw and are left out.
		b.Run(tc.name+"/split", func(b *testing.B) {
			var streams [][]byte
			var sizes []int
			m := len(src) / 8
			for j := range 8 {
				comp := make([]byte, m)
				if n := blosclz.Compress(comp, src[j*m:(j+1)*m], 9); n > 0 {
					streams = append(streams, comp[:n])
					sizes = append(sizes, m)
				}
			}
			if len(streams) == 0 {
				b.Skip("no plane compressible")
			}
			benchDecode(b, streams, sizes)
		})
	}
}

func benchDecode(b *testing.B, streams [][]byte, sizes []int) {
	total, ctotal := 0, 0
	for i, s := range sizes {
		total += s
		ctotal += len(streams[i])
	}
	dst := make([]byte, total)
	b.SetBytes(int64(total))
	for b.Loop() {
		off := 0
		for i, s := range streams {
			if _, err := blosclz.Decompress(dst[off:off+sizes[i]], s); err != nil {
				b.Fatal(err)
			}
			off += sizes[i]
		}
	}
	b.ReportMetric(float64(total)/float64(ctotal), "ratio")
	b.ReportMetric(float64(b.N)*float64(total)/1e6/b.Elapsed().Seconds(), "MB/s")
}

func BenchmarkCompress(b *testing.B) {
	src := shuffledFloats(func(x float64) float64 { return float64(float32(x)) })
	for _, clevel := range []int{5, 9} {
		b.Run(fmt.Sprintf("f64norm32/clevel=%d", clevel), func(b *testing.B) {
			comp := make([]byte, len(src))
			n := 0
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				n = blosclz.Compress(comp, src, clevel)
			}
			if n == 0 {
				b.Fatal("not compressed")
			}
			b.ReportMetric(float64(len(src))/float64(n), "ratio")
			b.ReportMetric(float64(b.N)*float64(len(src))/1e6/b.Elapsed().Seconds(), "MB/s")
		})
	}
}
