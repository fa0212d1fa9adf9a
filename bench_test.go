package b2sql_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql"
)

// BenchmarkResults compares the ways of reading 200,000 rows of a BIGINT
// and a DOUBLE column: Scan per row, Values per row, and Arrow batches
// (zero-copy for both columns).
func BenchmarkResults(b *testing.B) {
	const n = 200_000
	db := openFixture(b, n, b2sql.WithThreads(1))
	ctx := context.Background()
	const q = "SELECT i, f FROM t"
	run := func(b *testing.B, read func(*b2sql.Rows) int) {
		b.ReportAllocs()
		for b.Loop() {
			rows, err := db.Query(ctx, q)
			if err != nil {
				b.Fatal(err)
			}
			if got := read(rows); got != n {
				b.Fatalf("read %d rows: %v", got, rows.Err())
			}
		}
		b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
	}
	b.Run("scan", func(b *testing.B) {
		run(b, func(r *b2sql.Rows) int {
			defer r.Close()
			k := 0
			var i int64
			var f float64
			for r.Next() {
				if r.Scan(&i, &f) == nil {
					k++
				}
			}
			return k
		})
	})
	b.Run("values", func(b *testing.B) {
		run(b, func(r *b2sql.Rows) int {
			defer r.Close()
			k := 0
			for r.Next() {
				if v := r.Values(); v[0].I >= 0 {
					k++
				}
			}
			return k
		})
	})
	b.Run("arrow", func(b *testing.B) {
		run(b, func(r *b2sql.Rows) int {
			rr := r.RecordReader()
			defer rr.Release()
			k := 0
			for rr.Next() {
				k += rr.RecordBatch().Column(0).(*array.Int64).Len()
			}
			return k
		})
	})
}
