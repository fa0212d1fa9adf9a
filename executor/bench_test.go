package executor

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// replay serves the same prepared batches again and again, so benchmarks
// time the operator, not data generation.
type replay struct {
	types   []columnar.Type
	batches []*columnar.Batch
	pos     int
}

func (r *replay) Types() []columnar.Type         { return r.types }
func (r *replay) Children() []Operator           { return nil }
func (r *replay) String() string                 { return "replay" }
func (r *replay) Open(ctx context.Context) error { r.pos = 0; return nil }
func (r *replay) Close() error                   { return nil }
func (r *replay) Next(ctx context.Context) (*columnar.Batch, error) {
	if r.pos >= len(r.batches) {
		return nil, io.EOF
	}
	r.pos++
	return r.batches[r.pos-1], nil
}

const benchRows = 1 << 20

// benchInput makes benchRows rows of (k BIGINT in [0, keys), x DOUBLE, s VARCHAR of k).
func benchInput(keys int) *replay {
	rng := rand.New(rand.NewSource(1))
	names := make([][]byte, keys)
	for i := range names {
		names[i] = []byte(fmt.Sprintf("cat_%04d", i))
	}
	types := []columnar.Type{columnar.TInt64, columnar.TFloat64, columnar.TVarchar}
	r := &replay{types: types}
	for done := 0; done < benchRows; done += columnar.MaxBatch {
		b := columnar.NewBatch(types, columnar.MaxBatch)
		b.Len = columnar.MaxBatch
		for i := 0; i < b.Len; i++ {
			k := rng.Intn(keys)
			b.Cols[0].Ints[i] = int64(k)
			b.Cols[1].Floats[i] = rng.Float64() * 1000
			b.Cols[2].Bytes[i] = names[k]
		}
		r.batches = append(r.batches, b)
	}
	return r
}

func runBench(b *testing.B, op Operator) {
	b.ReportAllocs()
	b.SetBytes(benchRows * 8)
	for b.Loop() {
		ctx := context.Background()
		if err := op.Open(ctx); err != nil {
			b.Fatal(err)
		}
		for {
			_, err := op.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)*benchRows/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkFilterLessConst(b *testing.B) {
	in := benchInput(100)
	cond, _ := NewCall("<", []Expr{ColumnExpr(1, columnar.TFloat64), ConstExpr(columnar.FloatValue(columnar.TFloat64, 500))}, columnar.TBool)
	runBench(b, &Filter{Input: in, Cond: cond})
}

func BenchmarkHashAgg(b *testing.B) {
	for _, keys := range []int{20, 100, 100_000} {
		in := benchInput(keys)
		aggs := []AggSpec{
			{Kind: AggCountStar, Type: columnar.TInt64},
			{Kind: AggSum, Arg: ColumnExpr(1, columnar.TFloat64), Type: columnar.TFloat64},
		}
		b.Run(fmt.Sprintf("key=int/groups=%d", keys), func(b *testing.B) {
			runBench(b, &HashAgg{Input: in, Groups: []Expr{ColumnExpr(0, columnar.TInt64)}, Aggs: aggs})
		})
		b.Run(fmt.Sprintf("key=string/groups=%d", keys), func(b *testing.B) {
			runBench(b, &HashAgg{Input: in, Groups: []Expr{ColumnExpr(2, columnar.TVarchar)}, Aggs: aggs})
		})
	}
}

func BenchmarkTopK(b *testing.B) {
	in := benchInput(100)
	runBench(b, &TopK{Input: in, Keys: []SortKey{{Expr: ColumnExpr(1, columnar.TFloat64), Desc: true}}, Count: 10})
}
