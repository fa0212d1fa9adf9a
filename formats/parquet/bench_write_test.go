package parquet

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// BenchmarkWriterBloom writes 1M rows (sorted ids, random ints, a
// 100-value and a unique string column, floats) with and without bloom
// filters, reporting rows/s and the file size: what the filters cost.
func BenchmarkWriterBloom(b *testing.B) {
	const n, batch = 1_000_000, 4096
	sc := columnar.Schema{
		{Name: "id", Type: columnar.TInt64},
		{Name: "user", Type: columnar.TInt32},
		{Name: "cat", Type: columnar.TVarchar},
		{Name: "title", Type: columnar.TVarchar},
		{Name: "f", Type: columnar.TFloat64},
	}
	types := make([]columnar.Type, len(sc))
	for i, f := range sc {
		types[i] = f.Type
	}
	var batches []*columnar.Batch
	for first := 0; first < n; first += batch {
		bt := columnar.NewBatch(types, batch)
		bt.Len = min(batch, n-first)
		for j := 0; j < bt.Len; j++ {
			i := first + j
			bt.Cols[0].Ints[j] = int64(i)
			bt.Cols[1].Ints[j] = int64(i) * 2654435761 % 1_000_003
			bt.Cols[2].Bytes[j] = fmt.Appendf(nil, "cat_%02d", i*7919%100)
			bt.Cols[3].Bytes[j] = fmt.Appendf(nil, "title %d %x", i, i*2654435761)
			bt.Cols[4].Floats[j] = math.Sin(float64(i))
		}
		batches = append(batches, bt)
	}
	for _, noBloom := range []bool{false, true} {
		b.Run(fmt.Sprintf("bloom=%v", !noBloom), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "w.parquet")
			for b.Loop() {
				w, err := NewWriter(path, sc, WriterOptions{NoBloomFilters: noBloom})
				if err != nil {
					b.Fatal(err)
				}
				for _, bt := range batches {
					if err := w.Write(bt); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(st.Size()), "file-bytes")
		})
	}
}
