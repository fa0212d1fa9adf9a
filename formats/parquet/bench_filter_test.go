package parquet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// BenchmarkFilteredScan scans every column of the benchmark file under a
// selective filter, with the Parquet scan rules on and off: a point lookup
// on the sorted column (page index), a scattered 1% selection on a float
// column (late materialization), and an absent string (bloom filters).
// Metrics: table rows per second, bytes decompressed and pages skipped per
// scan.
func BenchmarkFilteredScan(b *testing.B) {
	tb, err := Open(benchFile(b))
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	i64 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt64, v) }
	filters := []struct {
		name string
		pred index.Pred
	}{
		{"i=1234567", index.Pred{Col: 0, Op: index.Eq, Vals: []columnar.Value{i64(1_234_567)}}},
		{"f>999", index.Pred{Col: 1, Op: index.Gt, Vals: []columnar.Value{columnar.FloatValue(columnar.TFloat64, 999)}}},
		{"u=absent", index.Pred{Col: 3, Op: index.Eq, Vals: []columnar.Value{columnar.StringValue("title number 42 of the benchmark 0")}}},
	}
	modes := []struct {
		name string
		off  []index.ScanRule
	}{
		{"rules=on", nil},
		{"late=off", []index.ScanRule{index.LateMaterialization}},
		{"page_index=off", []index.ScanRule{index.PageIndex}},
		{"bloom=off", []index.ScanRule{index.BloomFilter}},
		{"rules=off", []index.ScanRule{index.LateMaterialization, index.PageIndex, index.BloomFilter, index.BlockPruning}},
	}
	for _, f := range filters {
		for _, m := range modes {
			b.Run(fmt.Sprintf("%s/%s", f.name, m.name), func(b *testing.B) {
				spec := index.ScanSpec{Cols: []int{0, 1, 2, 3}, Filter: []index.Pred{f.pred}, Limit: -1, Threads: 1}
				for _, r := range m.off {
					spec.Off = spec.Off.With(r)
				}
				var st index.ScanStats
				var rows int64
				b.ReportAllocs()
				for b.Loop() {
					st = index.ScanStats{}
					spec.Stats = &st
					rows = drainScan(b, tb, spec)
				}
				b.ReportMetric(float64(b.N)*float64(tb.RowCount())/b.Elapsed().Seconds(), "rows/s")
				b.ReportMetric(float64(st.BytesDecompressed), "Bdecomp/op")
				b.ReportMetric(float64(st.PagesSkipped), "pages-skipped/op")
				b.ReportMetric(float64(rows), "rows-out/op")
			})
		}
	}
}

func drainScan(b *testing.B, tb *Table, spec index.ScanSpec) int64 {
	r, err := tb.Scan(context.Background(), spec)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	var n int64
	for {
		bt, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n += int64(bt.Live())
	}
}
