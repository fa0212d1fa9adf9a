package hashtab

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// Building and probing an integer join table, in the shapes of TPC-H's
// builds: dense keys (c_custkey), keys spread over four times their count
// (o_orderkey) and partsupp's packed (partkey, suppkey) pairs; probes hit
// a build key half of the time, in random order.
func BenchmarkIntTable(b *testing.B) {
	for _, tc := range []struct {
		name string
		n    int
		key  func(i int) int64
		miss int64 // added to a key, gives an absent one
	}{
		{"dense", 150_000, func(i int) int64 { return int64(i + 1) }, 150_000},
		{"spread", 300_000, func(i int) int64 { return int64(4*i + 1) }, 1},
		// part p's four suppliers are 2500 apart: s+1 is none of them.
		{"pairs", 800_000, func(i int) int64 { return int64(i/4+1)<<14 | int64(i%4*2500+i/4%2500) }, 1},
	} {
		build := func() *intTable {
			t := newIntTable()
			for i := range tc.n {
				t.insert(tc.key(i), int32(i))
			}
			t.finish()
			return t
		}
		b.Run(fmt.Sprintf("%s/build", tc.name), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				build()
			}
			b.ReportMetric(float64(b.N*tc.n)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run(fmt.Sprintf("%s/probe", tc.name), func(b *testing.B) {
			t := build()
			rng := rand.New(rand.NewPCG(1, 2))
			v := columnar.NewVector(columnar.TInt64, columnar.MaxBatch)
			for i := range v.Ints {
				k := rng.IntN(tc.n)
				v.Ints[i] = tc.key(k)
				if i%2 == 1 {
					v.Ints[i] += tc.miss
				}
			}
			rows := make([]int, columnar.MaxBatch)
			for i := range rows {
				rows[i] = i
			}
			lnull := make([]bool, columnar.MaxBatch)
			var pl, pr []int32
			b.ReportAllocs()
			for b.Loop() {
				pl, pr = t.probeInts(v, rows, lnull, pl[:0], pr[:0])
			}
			b.ReportMetric(float64(b.N*columnar.MaxBatch)/b.Elapsed().Seconds(), "probes/s")
		})
	}
}
