package demo

import (
	"path/filepath"
	"testing"
)

// BenchmarkGenerate measures end-to-end generation (values, encoding,
// compression, file write) of 1M rows.
func BenchmarkGenerate(b *testing.B) {
	const n = 1_000_000
	path := filepath.Join(b.TempDir(), "events.parquet")
	b.ReportAllocs()
	for b.Loop() {
		if err := Generate(path, n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}
