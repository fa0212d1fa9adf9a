package parquet

import (
	"fmt"
	"sync"
	"testing"

	"github.com/b2sql/b2sql/columnar"

	"github.com/b2sql/b2sql/index"
)

// TestScanUnitsShared: the unit readers of one ScanUnits call recycle
// workers and batches between them (unitShare). Three consumers take the
// units concurrently, as the parallel plan's workers do, and check every
// value of a batch while they hold it (so a batch handed to another reader
// too early shows as a wrong value, or a race under -race); together they
// must see every expected row once. Plain and filtered (late
// materialization, a key set) scans, at two batch sizes.
func TestScanUnitsShared(t *testing.T) {
	tb := openPageIndexed(t)
	cols := piCols()
	for _, tc := range []struct {
		name   string
		filter func() []index.Pred
		match  func(i int) bool
	}{
		{"plain", func() []index.Pred { return nil }, func(int) bool { return true }},
		{"key-set", func() []index.Pred {
			return []index.Pred{{Col: 0, Op: index.InSet, Set: &index.KeySet{Has: func(k int64) bool { return k%5 == 2 }}}}
		}, func(i int) bool { return i%5 == 2 }},
	} {
		for _, br := range []int64{7, 2048} {
			where := fmt.Sprintf("%s batch=%d", tc.name, br)
			old := batchRows
			batchRows = br
			units, err := tb.ScanUnits(t.Context(), index.ScanSpec{Cols: allColumns(len(cols)), Filter: tc.filter(), Limit: -1})
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			next, seen, bad := 0, map[int]int{}, 0
			var wg sync.WaitGroup
			for range 3 {
				wg.Go(func() {
					for {
						mu.Lock()
						k := next
						next++
						mu.Unlock()
						if k >= len(units) {
							return
						}
						r, err := units[k](t.Context())
						if err != nil {
							t.Error(err)
							return
						}
						for {
							b, err := r.Next(t.Context())
							if err != nil {
								break
							}
							for j := range b.Live() {
								row := b.Row(j)
								id := int(b.Cols[0].Ints[row])
								for c, v := range b.Cols {
									if got, want := v.Value(row), piValue(cols[c], id); !sameValue(got, want) && !bothNaN(got, want) {
										mu.Lock()
										bad++
										mu.Unlock()
									}
								}
								mu.Lock()
								seen[id]++
								mu.Unlock()
							}
						}
						r.Close()
					}
				})
			}
			wg.Wait()
			batchRows = old
			if bad > 0 {
				t.Errorf("%s: %d wrong values", where, bad)
			}
			n := 0
			for i := range piRows {
				if tc.match(i) {
					n++
					if seen[i] != 1 {
						t.Fatalf("%s: row %d seen %d times", where, i, seen[i])
					}
				}
			}
			if len(seen) != n {
				t.Errorf("%s: %d rows, want %d", where, len(seen), n)
			}
		}
	}
}

// bothNaN reports whether two float values are both NaN (equal for the
// test, as in the executor's order).
func bothNaN(a, b columnar.Value) bool {
	return a.Type.IsFloat() && !a.Null && !b.Null && a.F != a.F && b.F != b.F
}
