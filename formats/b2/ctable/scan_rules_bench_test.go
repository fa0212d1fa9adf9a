package ctable

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/index"
)

// rulesBenchTable returns a table of B2SQL_BENCH_ROWS rows (default 2M),
// written once under the temporary directory and reused by later runs:
//
//	ts     BIGINT   i                      sorted (clustered)
//	user   BIGINT   (i*7919) % 1000003      random: min/max prune nothing
//	price  DOUBLE   (i%10000) * 0.01
//	title  VARCHAR  "title of event i …"    utf8, ~40 bytes
func rulesBenchTable(b *testing.B) *Table {
	b.Helper()
	rows := 2_000_000
	if s := os.Getenv("B2SQL_BENCH_ROWS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			rows = n
		}
	}
	path := filepath.Join(os.TempDir(), fmt.Sprintf("b2sql-bench-rules-%d.b2d", rows))
	if _, err := os.Stat(filepath.Join(path, "_meta.b2f")); err != nil {
		os.RemoveAll(path)
		schema := columnar.Schema{{Name: "ts", Type: columnar.TInt64}, {Name: "user", Type: columnar.TInt64},
			{Name: "price", Type: columnar.TFloat64}, {Name: "title", Type: columnar.TVarchar}}
		w, err := Create(path, schema, CreateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		types := []columnar.Type{columnar.TInt64, columnar.TInt64, columnar.TFloat64, columnar.TVarchar}
		bt := columnar.NewBatch(types, 8192)
		for lo := 0; lo < rows; lo += 8192 {
			n := min(8192, rows-lo)
			bt.Len = n
			for k := 0; k < n; k++ {
				i := lo + k
				bt.Cols[0].Ints[k] = int64(i)
				bt.Cols[1].Ints[k] = int64(i) * 7919 % 1000003
				bt.Cols[2].Floats[k] = float64(i%10000) * 0.01
				bt.Cols[3].Bytes[k] = fmt.Appendf(bt.Cols[3].Bytes[k][:0], "title of event %d, in some words", i)
			}
			if err := w.Write(bt); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	tb, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { tb.Close() })
	return tb
}

// rulesModes are the two sides of every rules benchmark.
var rulesModes = []struct {
	name string
	off  index.RuleSet
}{{"rules=on", 0}, {"rules=off", index.RuleSet(0).With(index.TopKPruning).With(index.LateMaterialization)}}

// BenchmarkTopKPruning: ORDER BY ts DESC LIMIT 10 through executor.TopK
// sharing its bound with the scan (two threads), top-k pruning on and off.
// blocks/op is the blocks decoded.
func BenchmarkTopKPruning(b *testing.B) {
	tb := rulesBenchTable(b)
	for _, m := range rulesModes {
		b.Run(m.name, func(b *testing.B) {
			var st index.ScanStats
			for b.Loop() {
				st = index.ScanStats{}
				bound := &index.TopKBound{Col: 0, Desc: true}
				spec := index.ScanSpec{Cols: []int{0, 3}, Limit: -1, Threads: 2, Off: m.off, Stats: &st, TopK: bound}
				scan := &executor.Scan{Out: []columnar.Type{columnar.TInt64, columnar.TVarchar},
					Start: func(ctx context.Context) (columnar.Reader, error) { return tb.Scan(ctx, spec) }}
				top := &executor.TopK{Input: scan, Count: 10, Bound: bound,
					Keys: []executor.SortKey{{Expr: executor.ColumnExpr(0, columnar.TInt64), Desc: true}}}
				if err := top.Open(context.Background()); err != nil {
					b.Fatal(err)
				}
				bt, err := top.Next(context.Background())
				if err != nil || bt.Cols[0].Ints[bt.Row(0)] != tb.live-1 {
					b.Fatalf("first row %v, %v", bt, err)
				}
				top.Close()
			}
			b.ReportMetric(float64(st.UnitsTotal-st.UnitsSkipped), "blocks/op")
		})
	}
}

// BenchmarkLateMaterialization: SELECT * WHERE user = X (21 matching rows
// in 20M; about one per million) with late materialization on and off.
func BenchmarkLateMaterialization(b *testing.B) {
	tb := rulesBenchTable(b)
	pred := index.Pred{Col: 1, Op: index.Eq, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 4242)}}
	for _, m := range rulesModes {
		b.Run(m.name, func(b *testing.B) {
			var st index.ScanStats
			for b.Loop() {
				st = index.ScanStats{}
				spec := index.ScanSpec{Cols: []int{0, 1, 2, 3}, Filter: []index.Pred{pred}, Limit: -1, Threads: 2, Off: m.off, Stats: &st}
				r, err := tb.Scan(context.Background(), spec)
				if err != nil {
					b.Fatal(err)
				}
				for {
					_, err := r.Next(context.Background())
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				r.Close()
			}
			b.ReportMetric(float64(st.UnitsTotal-st.SkippedBy[index.LateMaterialization]), "blocks-fully-decoded/op")
			b.ReportMetric(float64(st.BytesDecompressed)/(1<<20), "MiB-decompressed/op")
		})
	}
}
