package filter_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/b2sql/b2sql/formats/b2/filter"
)

// BenchmarkPipeline estimates one core's share of a blosc2 chunk decode:
// a 4 MiB chunk in 256 KiB blocks, each block's streams decoded by the codec
// into scratch and the filter undone into the output. The codecs are the
// libraries formats/b2 uses; the block layout mirrors c-blosc2's defaults
// (split streams for shuffle, one stream for bitshuffle).
func BenchmarkPipeline(b *testing.B) {
	const chunk = 4 << 20
	rng := rand.New(rand.NewPCG(5, 6))
	f64 := make([]byte, 0, chunk)
	for len(f64) < chunk {
		f64 = binary.LittleEndian.AppendUint64(f64, math.Float64bits(math.Round((rng.NormFloat64()*10+100)*100)/100))
	}
	i32 := make([]byte, 0, chunk)
	for i := 0; len(i32) < chunk; i++ {
		i32 = binary.LittleEndian.AppendUint32(i32, uint32(i*3-7))
	}
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault))
	dec, _ := zstd.NewReader(nil)
	type codec struct {
		comp   func(dst, src []byte) []byte
		decomp func(dst, src []byte) error
	}
	zs := codec{
		func(dst, src []byte) []byte { return enc.EncodeAll(src, dst[:0]) },
		func(dst, src []byte) error { _, err := dec.DecodeAll(src, dst[:0]); return err },
	}
	l4 := codec{
		func(dst, src []byte) []byte {
			out := make([]byte, lz4.CompressBlockBound(len(src)))
			n, _ := lz4.CompressBlock(src, out, nil)
			return out[:n]
		},
		func(dst, src []byte) error { _, err := lz4.UncompressBlock(src, dst); return err },
	}
	cases := []struct {
		name  string
		data  []byte
		ts    int
		c     codec
		split bool
		bit   bool
	}{
		{"zstd+shuffle/f64", f64, 8, zs, true, false},
		{"lz4+shuffle/i32", i32, 4, l4, true, false},
		{"zstd+bitshuffle/f64", f64, 8, zs, false, true},
	}
	const block = 256 << 10
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			// Compress: filter each block, then one stream per plane or block.
			var streams [][][]byte
			tmp := make([]byte, block)
			for off := 0; off < chunk; off += block {
				src := tc.data[off : off+block]
				if tc.bit {
					_ = filter.BitShuffle(tmp, src, tc.ts)
				} else {
					filter.Shuffle(tmp, src, tc.ts)
				}
				n := 1
				if tc.split {
					n = tc.ts
				}
				var ss [][]byte
				for s := range n {
					part := tmp[s*block/n : (s+1)*block/n]
					ss = append(ss, tc.c.comp(nil, part))
				}
				streams = append(streams, ss)
			}
			out := make([]byte, chunk)
			scratch := make([]byte, block)
			b.SetBytes(chunk)
			for b.Loop() {
				for bi, ss := range streams {
					n := len(ss)
					for s, st := range ss {
						if err := tc.c.decomp(scratch[s*block/n:(s+1)*block/n], st); err != nil {
							b.Fatal(err)
						}
					}
					dst := out[bi*block : (bi+1)*block]
					if tc.bit {
						_ = filter.BitUnshuffle(dst, scratch, tc.ts)
					} else {
						filter.Unshuffle(dst, scratch, tc.ts)
					}
				}
			}
			b.ReportMetric(float64(b.N)*chunk/1e6/b.Elapsed().Seconds(), "MB/s")
		})
	}
}
