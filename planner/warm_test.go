package planner

import (
	"sync"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// remoteTable is an orderedTable posing as one read from a server: it
// records Warm and DescribeScan calls.
type remoteTable struct {
	*orderedTable
	mu        sync.Mutex
	warmed    []index.ScanSpec
	described int
}

func (t *remoteTable) IO() (index.IOStats, bool) { return index.IOStats{}, true }
func (t *remoteTable) Warm(spec index.ScanSpec) {
	t.mu.Lock()
	t.warmed = append(t.warmed, spec)
	t.mu.Unlock()
}
func (t *remoteTable) DescribeScan(index.ScanSpec) string {
	t.mu.Lock()
	t.described++
	t.mu.Unlock()
	return "described"
}

// TestWarmAtOpen: building a plan over a remote table reads nothing (no
// Warm, no DescribeScan, which plans a remote scan); opening the query
// warms each scan once with its filter, before any row is asked for;
// the description is made when it is shown.
func TestWarmAtOpen(t *testing.T) {
	for _, threads := range []int{1, 2} {
		tb := &remoteTable{orderedTable: &orderedTable{ids: []int64{1, 2, 3}, xs: []int64{5, 6, 7}, null: make([]bool, 3)}}
		x := Column{ID: 2, Name: "x", Type: columnar.TInt64}
		gt := index.Pred{Col: 1, Op: index.Gt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 5)}}
		scan := &Scan{Table: tb, Name: "t", TableCols: []int{1}, Cols: []Column{x}, Filter: []index.Pred{gt}, Limit: -1}
		b, err := Build(scan, BuildOptions{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		if len(tb.warmed) != 0 || tb.described != 0 {
			t.Fatalf("threads %d: Build warmed %d and described %d scans", threads, len(tb.warmed), tb.described)
		}
		if err := b.Root.Open(t.Context()); err != nil {
			t.Fatal(err)
		}
		if err := b.Root.Close(); err != nil {
			t.Fatal(err)
		}
		if len(tb.warmed) != 1 || len(tb.warmed[0].Filter) != 1 || tb.warmed[0].Filter[0].Op != index.Gt {
			t.Fatalf("threads %d: warmed %+v, want one spec with x > 5", threads, tb.warmed)
		}
		if s := b.Explain(false); tb.described == 0 {
			t.Fatalf("threads %d: EXPLAIN did not describe the scan:\n%s", threads, s)
		}
	}
}
