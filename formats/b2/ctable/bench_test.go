package ctable

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// benchTable writes rows rows of (id BIGINT, x DOUBLE, city VARCHAR
// dictionary, note VARCHAR utf8) with this package's Writer.
func benchTable(b *testing.B, rows int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "bench.b2d")
	schema := columnar.Schema{{Name: "id", Type: columnar.TInt64}, {Name: "x", Type: columnar.TFloat64},
		{Name: "city", Type: columnar.TVarchar}, {Name: "note", Type: columnar.TVarchar}}
	w, err := Create(path, schema, CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	types := []columnar.Type{columnar.TInt64, columnar.TFloat64, columnar.TVarchar, columnar.TVarchar}
	bt := columnar.NewBatch(types, 8192)
	for lo := 0; lo < rows; lo += 8192 {
		n := min(8192, rows-lo)
		bt.Len = n
		for k := 0; k < n; k++ {
			i := lo + k
			bt.Cols[0].Ints[k] = int64(i)
			bt.Cols[1].Floats[k] = float64(i%1000) * 0.5
			bt.Cols[2].Bytes[k] = []byte([]string{"Lyon", "Paris", "Nice", "Brest"}[i%4])
			bt.Cols[3].Bytes[k] = fmt.Appendf(nil, "note number %d with some text", i)
		}
		if err := w.Write(bt); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

func BenchmarkScan(b *testing.B) {
	const rows = 1 << 20
	path := benchTable(b, rows)
	tb, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	for _, tc := range []struct {
		name string
		cols []int
	}{{"id", []int{0}}, {"id+x", []int{0, 1}}, {"city", []int{2}}, {"note", []int{3}}} {
		for _, threads := range []int{1, 0} {
			b.Run(fmt.Sprintf("cols=%s/threads=%d", tc.name, threads), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r, err := tb.Scan(context.Background(), index.ScanSpec{Cols: tc.cols, Limit: -1, Threads: threads})
					if err != nil {
						b.Fatal(err)
					}
					n := 0
					for {
						bt, err := r.Next(context.Background())
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						n += bt.Live()
					}
					r.Close()
					if n != rows {
						b.Fatalf("%d rows", n)
					}
				}
				b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	for b.Loop() {
		benchTable(b, 1<<18)
	}
	b.ReportMetric(float64(b.N*(1<<18))/b.Elapsed().Seconds(), "rows/s")
}
