package b2

import (
	"math/rand/v2"
	"testing"
)

// Benchmarks: one 4 MiB chunk, automatic blocksize, single goroutine;
// MB/s counts uncompressed bytes. c-blosc2 reference (decompression):
// 7,300 / 19,500 / 21,000 / 11,900 / 3,600 MB/s for the five shapes.
var benchCases = []struct {
	name string
	data func(rng *rand.Rand) []byte
	p    CParams
}{
	{"f64normal/zstd1+shuffle", func(rng *rand.Rand) []byte { return genData("f64normal", 4<<20, rng) },
		CParams{Codec: Zstd, CLevel: 1, Typesize: 8, Filters: [6]uint8{5: FilterShuffle}}},
	{"i64seq/zstd1+shuffle", func(rng *rand.Rand) []byte { return genData("i64seq", 4<<20, rng) },
		CParams{Codec: Zstd, CLevel: 1, Typesize: 8, Filters: [6]uint8{5: FilterShuffle}}},
	{"i32uniform100/lz4+shuffle", func(rng *rand.Rand) []byte { return genData("i32small", 4<<20, rng) },
		CParams{Codec: LZ4, CLevel: 5, Typesize: 4, Filters: [6]uint8{5: FilterShuffle}}},
	{"f64normal/blosclz+shuffle", func(rng *rand.Rand) []byte { return genData("f64normal", 4<<20, rng) },
		CParams{Codec: BloscLZ, CLevel: 5, Typesize: 8, Filters: [6]uint8{5: FilterShuffle}}},
	{"f64normal/zstd1+bitshuffle", func(rng *rand.Rand) []byte { return genData("f64normal", 4<<20, rng) },
		CParams{Codec: Zstd, CLevel: 1, Typesize: 8, Filters: [6]uint8{5: FilterBitShuffle}}},
}

func BenchmarkDecompress(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			src := bc.data(rand.New(rand.NewPCG(1, 2)))
			chunk, err := Compress(nil, src, bc.p)
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]byte, len(src))
			d := NewDecoder()
			defer d.Release()
			if _, err := d.Decompress(dst, chunk); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := d.Decompress(dst, chunk); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
			b.ReportMetric(float64(len(src))/float64(len(chunk)), "ratio")
		})
	}
}

func BenchmarkCompress(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			src := bc.data(rand.New(rand.NewPCG(1, 2)))
			e := NewEncoder()
			out, err := e.Compress(nil, src, &bc.p)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				out, err = e.Compress(out, src, &bc.p)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
		})
	}
}

// BenchmarkReadAll1D measures the parallel whole-array path.
func BenchmarkReadAll1D(b *testing.B) {
	path := b.TempDir() + "/a.b2nd"
	data := genData("f64normal", 64<<20, rand.New(rand.NewPCG(1, 2)))
	if err := WriteArray(path, "<f8", []int64{int64(len(data) / 8)}, data, nil); err != nil {
		b.Fatal(err)
	}
	a, err := OpenArray(path)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	dst := make([]byte, len(data))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := a.ReadSlice(dst, []int64{0}, a.Shape()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data))*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
}
