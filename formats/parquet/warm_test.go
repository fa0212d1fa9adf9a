package parquet

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/storage"
)

// TestWarmFetchesFirstUnits: Warm has a remote table fetch ahead the
// chunks its scan reads first — under a filter the filter column of the
// row groups the footer leaves, from the first — and, for a LIMIT
// without a filter, only the row groups the limit needs.
func TestWarmFetchesFirstUnits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "warm.parquet")
	// 10 row groups of 1,000 rows; id is 0..9999 in order.
	writeArrow(t, path, piCols(), 0, 10_000, 1000, false, parquet.WithPageIndexEnabled(true))
	open := func(t *testing.T) (*Table, *recordingSource) {
		src, err := storage.Open(context.Background(), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec := &recordingSource{Source: src}
		tb, err := OpenSources("warm", []storage.Source{rec})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tb.Close() })
		return tb, rec
	}
	chunkStart := func(tb *Table, rg, col int) int64 {
		cc, err := tb.files[0].meta.RowGroup(rg).ColumnChunk(tb.cols[col].leaf)
		if err != nil {
			t.Fatal(err)
		}
		return chunkRange(cc).Off
	}

	t.Run("filter", func(t *testing.T) {
		tb, rec := open(t)
		id, clu := tb.Schema().Index("id"), tb.Schema().Index("clu")
		// id >= 7000 leaves row groups 7, 8 and 9 by their statistics.
		pred := index.Pred{Col: id, Op: index.Ge, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 7000)}}
		tb.Warm(index.ScanSpec{Cols: []int{clu}, Filter: []index.Pred{pred}, Limit: -1})
		for rg := range 10 {
			if got, want := rec.aheadCovers(chunkStart(tb, rg, id)), rg >= 7; got != want {
				t.Errorf("row group %d: id chunk fetched ahead %v, want %v", rg, got, want)
			}
		}
	})
	t.Run("undecided", func(t *testing.T) {
		// rnd < 10,003 keeps about 10% of every row group: no statistics
		// decide it. Reading id late, the scan has seen no batch yet, but
		// the units' statistics (rnd in [0, 100,003)) expect about 100
		// passing rows a batch: the warm fetches what a dense scan reads,
		// every unit's rnd chunk with its id pages, at once. Reading rnd
		// alone, it fetches all units too.
		pred := func(tb *Table) index.Pred {
			return index.Pred{Col: tb.Schema().Index("rnd"), Op: index.Lt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 10_003)}}
		}
		for _, late := range []bool{true, false} {
			tb, rec := open(t)
			rnd := tb.Schema().Index("rnd")
			cols := []int{rnd}
			if late {
				cols = []int{tb.Schema().Index("id")}
			}
			tb.Warm(index.ScanSpec{Cols: cols, Filter: []index.Pred{pred(tb)}, Limit: -1})
			for rg := range 10 {
				if !rec.aheadCovers(chunkStart(tb, rg, rnd)) {
					t.Errorf("late %v: row group %d: rnd chunk not fetched ahead", late, rg)
				}
				if late && !rec.aheadCovers(chunkStart(tb, rg, tb.Schema().Index("id"))) {
					t.Errorf("row group %d: id pages not fetched ahead", rg)
				}
			}
		}
	})
	t.Run("point", func(t *testing.T) {
		// rnd = x expects one row in 100,003: the first units' id pages
		// are left to the sparse walk, which fetches the few it needs.
		tb, rec := open(t)
		rnd, id := tb.Schema().Index("rnd"), tb.Schema().Index("id")
		pred := index.Pred{Col: rnd, Op: index.Eq, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, piRnd(4321))}}
		tb.Warm(index.ScanSpec{Cols: []int{id}, Filter: []index.Pred{pred}, Limit: -1})
		// It has not decided whether the scan is dense, so the warm
		// fetches only the first units' filter column.
		for rg := undecidedUnits; rg < 10; rg++ {
			if rec.aheadCovers(chunkStart(tb, rg, rnd)) {
				t.Errorf("row group %d: rnd chunk fetched ahead before the scan decided", rg)
			}
		}
		for rg := range undecidedUnits {
			if !rec.aheadCovers(chunkStart(tb, rg, rnd)) {
				t.Errorf("row group %d: rnd chunk not fetched ahead", rg)
			}
			if rec.aheadCovers(chunkStart(tb, rg, id)) {
				t.Errorf("row group %d: id pages fetched ahead for a point lookup", rg)
			}
		}
	})
	t.Run("limit", func(t *testing.T) {
		tb, rec := open(t)
		clu := tb.Schema().Index("clu")
		// 1,500 rows need the first two row groups.
		tb.Warm(index.ScanSpec{Cols: []int{clu}, Limit: 1500})
		for rg := range 10 {
			if got, want := rec.aheadCovers(chunkStart(tb, rg, clu)), rg < 2; got != want {
				t.Errorf("row group %d: clu chunk fetched ahead %v, want %v", rg, got, want)
			}
		}
	})
	t.Run("local", func(t *testing.T) {
		// A local table has nothing to warm and must not plan a scan
		// (which would load the page indexes of row groups 7 to 9).
		tb, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		id := tb.Schema().Index("id")
		pred := index.Pred{Col: id, Op: index.Ge, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 7000)}}
		tb.Warm(index.ScanSpec{Cols: []int{id}, Filter: []index.Pred{pred}, Limit: -1})
		tb.pidx.mu.Lock()
		n := len(tb.pidx.m)
		tb.pidx.mu.Unlock()
		if n != 0 {
			t.Fatalf("local Warm loaded %d page indexes", n)
		}
	})
}
