package executor

import (
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// BenchmarkMedian10M feeds 10M random doubles, in batches of 2048, to one
// median state and computes the result: the holistic path's collect cost
// (append to a typed slice) plus the selection. bytes/op is the values'
// storage; 8 B a value is the floor.
func BenchmarkMedian10M(b *testing.B) {
	const rows, size = 10_000_000, 2048
	r := rand.New(rand.NewPCG(3, 4))
	batches := make([]*columnar.Batch, 0, rows/size+1)
	for done := 0; done < rows; done += size {
		n := min(size, rows-done)
		bt := columnar.NewBatch([]columnar.Type{columnar.TFloat64}, n)
		bt.Len = n
		for i := range n {
			bt.Cols[0].Floats[i] = r.Float64() * 1000
		}
		batches = append(batches, bt)
	}
	gids := make([]int32, size)
	out := columnar.NewVector(columnar.TFloat64, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		s := newAggState(AggSpec{Kind: AggMedian, Arg: ColumnExpr(0, columnar.TFloat64), Type: columnar.TFloat64})
		s.grow(1)
		for _, bt := range batches {
			if err := s.update(bt, bt.Cols[0], gids); err != nil {
				b.Fatal(err)
			}
		}
		s.result(out, 0, 1)
	}
	b.ReportMetric(float64(b.N)*rows/b.Elapsed().Seconds(), "rows/s")
}
