package filter_test

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/filter"
)

const benchBlock = 256 << 10

// benchFloats is a 256 KiB block of normal-distributed values of width ts
// (float64 bits for 8, float32 bits for 4, int16 for 2, bytes for 1).
func benchFloats(ts int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 0, benchBlock)
	for len(b) < benchBlock {
		x := rng.NormFloat64()*10 + 100
		switch ts {
		case 8:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		case 4:
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x)))
		case 2:
			b = binary.LittleEndian.AppendUint16(b, uint16(int16(x*100)))
		default:
			b = append(b, byte(x))
		}
	}
	return b
}

func report(b *testing.B, n int) {
	b.ReportMetric(float64(b.N)*float64(n)/1e6/b.Elapsed().Seconds(), "MB/s")
}

var noAVX2 = flag.Bool("noavx2", false, "benchmark the SSE2 kernels even where AVX2 exists")

func BenchmarkUnshuffle(b *testing.B) {
	for _, ts := range []int{2, 3, 4, 6, 8, 12, 16} {
		b.Run(fmt.Sprintf("ts=%d", ts), func(b *testing.B) {
			defer filter.SetAVX2(filter.SetAVX2(!*noAVX2))
			src := benchFloats(ts)
			shuf := make([]byte, len(src))
			filter.Shuffle(shuf, src, ts)
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				filter.Unshuffle(dst, shuf, ts)
			}
			report(b, len(src))
		})
	}
}

func BenchmarkShuffle(b *testing.B) {
	for _, ts := range []int{2, 3, 4, 8, 16} {
		b.Run(fmt.Sprintf("ts=%d", ts), func(b *testing.B) {
			src := benchFloats(ts)
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				filter.Shuffle(dst, src, ts)
			}
			report(b, len(src))
		})
	}
}

func BenchmarkBitUnshuffle(b *testing.B) {
	for _, ts := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("ts=%d", ts), func(b *testing.B) {
			defer filter.SetAVX2(filter.SetAVX2(!*noAVX2))
			src := benchFloats(ts)
			shuf := make([]byte, len(src))
			if err := filter.BitShuffle(shuf, src, ts); err != nil {
				b.Fatal(err)
			}
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if err := filter.BitUnshuffle(dst, shuf, ts); err != nil {
					b.Fatal(err)
				}
			}
			report(b, len(src))
		})
	}
}

func BenchmarkBitShuffle(b *testing.B) {
	for _, ts := range []int{4, 8} {
		b.Run(fmt.Sprintf("ts=%d", ts), func(b *testing.B) {
			src := benchFloats(ts)
			dst := make([]byte, len(src))
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if err := filter.BitShuffle(dst, src, ts); err != nil {
					b.Fatal(err)
				}
			}
			report(b, len(src))
		})
	}
}

func BenchmarkDeltaDecode(b *testing.B) {
	for _, ts := range []int{1, 8} {
		for _, first := range []bool{true, false} {
			b.Run(fmt.Sprintf("ts=%d/first=%v", ts, first), func(b *testing.B) {
				src := benchFloats(8)
				ref := benchFloats(8)
				dst := make([]byte, len(src))
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					filter.DeltaDecode(dst, src, ref, ts, first)
				}
				report(b, len(src))
			})
		}
	}
}

func BenchmarkByteDeltaDecode(b *testing.B) {
	src := benchFloats(4)
	dst := make([]byte, len(src))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		filter.ByteDeltaDecode(dst, src, 4)
	}
	report(b, len(src))
}
