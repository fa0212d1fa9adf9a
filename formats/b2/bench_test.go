package b2

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"path/filepath"
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

// BenchmarkWriteArrayND writes a 64 MiB 3-D <f8 array (2 MiB chunks with
// edge chunks in every dimension, zstd clevel 1 + shuffle, all cores)
// three ways: WriteArray from memory, Append one row at a time, and
// WriteChunk in C order. MB/s counts uncompressed array bytes.
func BenchmarkWriteArrayND(b *testing.B) {
	shape := []int64{130, 250, 260}
	opts := &ArrayOptions{ChunkShape: []int{8, 128, 256}, BlockShape: []int{2, 32, 128}}
	data := make([]byte, shape[0]*shape[1]*shape[2]*8)
	rng := rand.New(rand.NewPCG(1, 2))
	x := 0.0
	for i := 0; i < len(data); i += 8 {
		x += rng.NormFloat64()
		binary.LittleEndian.PutUint64(data[i:], math.Float64bits(x))
	}
	path := filepath.Join(b.TempDir(), "nd.b2nd")
	run := func(b *testing.B, write func() error) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if err := write(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(data))*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
	}
	b.Run("WriteArray", func(b *testing.B) {
		run(b, func() error { return WriteArray(path, "<f8", shape, data, opts) })
	})
	b.Run("Append=row", func(b *testing.B) {
		row := int(shape[1] * shape[2] * 8)
		run(b, func() error {
			w, err := CreateArray(path, "<f8", shape, opts)
			if err != nil {
				return err
			}
			for off := 0; off < len(data); off += row {
				if err := w.Append(data[off : off+row]); err != nil {
					return err
				}
			}
			return w.Close()
		})
	})
	b.Run("WriteChunk", func(b *testing.B) {
		var parts [][]int64
		var chunks [][]byte
		forChunks(shape, opts.ChunkShape, func(cc, lo, hi []int64) {
			parts = append(parts, append([]int64(nil), cc...))
			chunks = append(chunks, subSlab(data, shape, lo, hi, 8))
		})
		run(b, func() error {
			w, err := CreateArray(path, "<f8", shape, opts)
			if err != nil {
				return err
			}
			for i, cc := range parts {
				if err := w.WriteChunk(cc, chunks[i]); err != nil {
					return err
				}
			}
			return w.Close()
		})
	})
}
