package executor

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// batchesSource replays prepared batches (no per-batch allocation, so the
// benchmark measures the consumer).
type batchesSource struct {
	types []columnar.Type
	bs    []*columnar.Batch
	pos   int
}

func (s *batchesSource) Types() []columnar.Type         { return s.types }
func (s *batchesSource) Children() []Operator           { return nil }
func (s *batchesSource) String() string                 { return "batches" }
func (s *batchesSource) Open(ctx context.Context) error { s.pos = 0; return nil }
func (s *batchesSource) Close() error                   { return nil }
func (s *batchesSource) Next(ctx context.Context) (*columnar.Batch, error) {
	if s.pos == len(s.bs) {
		return nil, io.EOF
	}
	s.pos++
	return s.bs[s.pos-1], nil
}

// categoryBatches makes rows of a 100-value string column (like the demo's
// category, "cat_000".."cat_099", skewed), as strings or as codes over one
// dictionary per 120 batches (a Parquet row group of ~122880 rows).
func categoryBatches(rows int, coded bool) []*columnar.Batch {
	vals := make([]string, 100)
	for i := range vals {
		vals[i] = fmt.Sprintf("cat_%03d", i)
	}
	var out []*columnar.Batch
	var d *dict.Dict
	for start := 0; start < rows; start += columnar.MaxBatch {
		n := min(columnar.MaxBatch, rows-start)
		b := columnar.NewBatch([]columnar.Type{columnar.TVarchar}, n)
		b.Len = n
		v := b.Cols[0]
		if len(out)%120 == 0 {
			d = dict.New(vals...)
		}
		var codes []int32
		if coded {
			codes = dict.Set(v, d, n)
		}
		for i := range n {
			r := start + i
			c := r % 100 // every value; a third of the rows on the first ten
			if r%3 == 0 {
				c = (r / 3) % 10
			}
			if coded {
				codes[i] = int32(c)
			} else {
				v.Bytes[i] = []byte(vals[c])
			}
		}
		out = append(out, b)
	}
	return out
}

// BenchmarkGroupByCodes: SELECT category, count(*) GROUP BY category on
// dictionary codes vs the same values as strings.
func BenchmarkGroupByCodes(b *testing.B) {
	const rows = 1 << 20
	for _, coded := range []bool{false, true} {
		name := "strings"
		if coded {
			name = "codes"
		}
		b.Run(name, func(b *testing.B) {
			src := &batchesSource{types: []columnar.Type{columnar.TVarchar}, bs: categoryBatches(rows, coded)}
			b.ReportAllocs()
			for b.Loop() {
				agg := &HashAgg{Input: src, Groups: []Expr{ColumnExpr(0, columnar.TVarchar)},
					Aggs: []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}}}
				if err := agg.Open(context.Background()); err != nil {
					b.Fatal(err)
				}
				if agg.ngroups != 100 {
					b.Fatalf("%d groups", agg.ngroups)
				}
				agg.Close()
			}
			b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkFilterCodes: WHERE category = 'cat_007' on codes vs strings.
func BenchmarkFilterCodes(b *testing.B) {
	const rows = 1 << 20
	for _, coded := range []bool{false, true} {
		name := "strings"
		if coded {
			name = "codes"
		}
		b.Run(name, func(b *testing.B) {
			src := &batchesSource{types: []columnar.Type{columnar.TVarchar}, bs: categoryBatches(rows, coded)}
			cond, err := NewCall("=", []Expr{ColumnExpr(0, columnar.TVarchar), ConstExpr(columnar.StringValue("cat_007"))}, columnar.TBool)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				f := &Filter{Input: src, Cond: cond}
				_ = f.Open(context.Background())
				for {
					if _, err := f.Next(context.Background()); err != nil {
						break
					}
				}
			}
			b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
