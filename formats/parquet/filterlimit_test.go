package parquet

import (
	"fmt"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestFilteredLimit: filters that keep most rows of every batch, under
// LIMIT (which cuts units and batches) and without, at every batch size
// and rule combination: the first matches in file order, every value right.
func TestFilteredLimit(t *testing.T) {
	tb := openPageIndexed(t)
	cols := piCols()
	col := func(name string) int { return tb.Schema().Index(name) }
	for _, tc := range []struct {
		name   string
		filter []index.Pred
		match  func(i int) bool
	}{
		// rnd < 90,000 keeps about 90% of the rows, scattered.
		{"rnd-lt", []index.Pred{{Col: col("rnd"), Op: index.Lt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 90_000)}}},
			func(i int) bool { return piRnd(i) < 90_000 }},
		// NULLs fail: 6/7 of the rows outside the NULL run pass.
		{"nul-not-null", []index.Pred{{Col: col("nul"), Op: index.IsNotNull}},
			func(i int) bool { _, ok := piNul(i); return ok }},
	} {
		var all []int
		for i := range piRows {
			if tc.match(i) {
				all = append(all, i)
			}
		}
		for _, limit := range []int64{-1, 1, 7, 2047, 2048, 2049, 5000, 12345} {
			for _, br := range []int64{7, 2048} {
				for _, threads := range []int{1, 3} {
					for _, m := range scanModes {
						where := fmt.Sprintf("%s %s limit=%d batch=%d threads=%d", tc.name, m.name, limit, br, threads)
						old := batchRows
						batchRows = br
						spec := m.spec(allColumns(len(cols)), tc.filter, threads, nil)
						spec.Limit = limit
						rows := readAll(t, tb, spec)
						batchRows = old
						want := all
						if limit >= 0 {
							want = all[:min(int(limit), len(all))]
							// LIMIT scans are ordered: the first matches, in file order.
							for k, row := range rows {
								if k < len(want) && row[0].I != int64(want[k]) {
									t.Fatalf("%s: row %d is id %d, want %d", where, k, row[0].I, want[k])
								}
							}
						}
						checkRowNums(t, where, cols, rows, want)
					}
				}
			}
		}
	}
}
