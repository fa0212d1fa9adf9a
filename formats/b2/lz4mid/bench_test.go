package lz4mid_test

import (
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/lz4mid"
	"github.com/pierrec/lz4/v4"
)

// BenchmarkCompressText compresses 256 KiB blocks of demo-shaped titles
// (the utf8() bytes block size b2sql writes) and reports the ratio.
func BenchmarkCompressText(b *testing.B) {
	src := []byte(titles(rand.New(rand.NewPCG(1, 1)), 6000))[:256<<10]
	dst := make([]byte, lz4mid.CompressBlockBound(len(src)))
	var c lz4mid.Compressor
	n := 0
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		n = c.Compress(dst, src)
	}
	b.ReportMetric(float64(len(src))/float64(n), "ratio")
}

// BenchmarkDecompressText decodes the same block with pierrec/lz4, the
// decoder b2sql reads it with.
func BenchmarkDecompressText(b *testing.B) {
	src := []byte(titles(rand.New(rand.NewPCG(1, 1)), 6000))[:256<<10]
	dst := make([]byte, lz4mid.CompressBlockBound(len(src)))
	var c lz4mid.Compressor
	block := dst[:c.Compress(dst, src)]
	out := make([]byte, len(src))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := lz4.UncompressBlock(block, out); err != nil {
			b.Fatal(err)
		}
	}
}
