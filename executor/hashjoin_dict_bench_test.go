package executor

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// BenchmarkJoinProbeCodes: 1M probe rows of a 100-value category column
// (categoryBatches: one dictionary per 120 batches) against a build side
// holding 50 of the values, probed by codes vs by strings. The semi join
// measures the probe alone; the inner join adds the gathering of the
// output pairs (about 55% of the rows match).
func BenchmarkJoinProbeCodes(b *testing.B) {
	const rows = 1 << 20
	var build [][]columnar.Value
	for i := range 50 {
		build = append(build, []columnar.Value{str(fmt.Sprintf("cat_%03d", 2*i))})
	}
	for _, kind := range []JoinKind{JoinSemi, JoinInner} {
		for _, coded := range []bool{false, true} {
			name := "strings"
			if coded {
				name = "codes"
			}
			b.Run(fmt.Sprintf("kind=%s/%s", JoinKindString(kind), name), func(b *testing.B) {
				src := &batchesSource{types: []columnar.Type{columnar.TVarchar}, bs: categoryBatches(rows, coded)}
				b.ReportAllocs()
				for b.Loop() {
					j := &HashJoin{Left: src, Kind: kind,
						Right:     &source{types: []columnar.Type{columnar.TVarchar}, rows: build, n: columnar.MaxBatch},
						LeftKeys:  []Expr{ColumnExpr(0, columnar.TVarchar)},
						RightKeys: []Expr{ColumnExpr(0, columnar.TVarchar)}}
					if err := j.Open(context.Background()); err != nil {
						b.Fatal(err)
					}
					n := 0
					for {
						out, err := j.Next(context.Background())
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						n += out.Live()
					}
					j.Close()
					// r%3 == 0 rows take (r/3)%10 (5 even of 10), the others
					// r%100 (50 even of 100): about 55% of the rows.
					if n < rows/2 || n > rows*6/10 {
						b.Fatalf("%d rows matched", n)
					}
				}
				b.ReportMetric(float64(b.N*rows)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}
