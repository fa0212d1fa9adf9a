package planner

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestSplitDistinctBySize: SELECT g, count(DISTINCT x) FROM t GROUP BY g
// splits into two aggregates over a table of 10M rows, stays one over a
// table of 50,000 (below splitDistinctMinRows), and a grand total
// count(DISTINCT x) splits whatever the size.
func TestSplitDistinctBySize(t *testing.T) {
	g := Column{ID: 1, Name: "g", Type: columnar.TInt64}
	x := Column{ID: 2, Name: "x", Type: columnar.TInt64}
	plan := func(rows int64, grouped bool) Node {
		tbl := &statsTable{schema: columnar.Schema{{Name: "g", Type: columnar.TInt64}, {Name: "x", Type: columnar.TInt64}}, rows: rows}
		scan := &Scan{Table: tbl, Name: "t", TableCols: []int{0, 1}, Cols: []Column{g, x}, Limit: -1}
		cnt := AggCall{Func: AggCount, Arg: &ColRef{Col: x}, Distinct: true, Type: columnar.TInt64}
		a := &Aggregate{Input: scan, Aggs: []AggCall{cnt}}
		if grouped {
			a.Groups = []Expr{&ColRef{Col: g}}
			a.Out = append(a.Out, Column{ID: 3, Name: "g", Type: columnar.TInt64})
		}
		a.Out = append(a.Out, Column{ID: 4, Name: "n", Type: columnar.TInt64})
		return a
	}
	split := func(n Node) bool {
		a := splitDistinct(n).(*Aggregate)
		_, stacked := a.Input.(*Aggregate)
		return stacked
	}
	for _, c := range []struct {
		rows    int64
		grouped bool
		want    bool
	}{
		{10_000_000, true, true},
		{50_000, true, false},
		{splitDistinctMinRows, true, true},
		{50_000, false, true},
	} {
		if got := split(plan(c.rows, c.grouped)); got != c.want {
			t.Errorf("rows=%d grouped=%v: split=%v, want %v", c.rows, c.grouped, got, c.want)
		}
	}
}
