package planner

import (
	"reflect"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestOptimizeReportsChanges: Optimize names exactly the rules that changed
// the plan, and Format shows what they changed. SELECT id FROM t LIMIT 5
// over a two-column table: PushLimits gives the scan its limit and
// PruneColumns drops x; FoldConstants, MakeTopK and the others find nothing.
func TestOptimizeReportsChanges(t *testing.T) {
	tbl := &statsTable{schema: columnar.Schema{{Name: "id", Type: columnar.TInt64}, {Name: "x", Type: columnar.TFloat64}}, rows: 10}
	id := Column{ID: 1, Name: "id", Type: columnar.TInt64}
	x := Column{ID: 2, Name: "x", Type: columnar.TFloat64}
	plan := func() Node {
		scan := &Scan{Table: tbl, Name: "t", TableCols: []int{0, 1}, Cols: []Column{id, x}, Limit: -1}
		proj := &Project{Input: scan, Exprs: []Expr{&ColRef{Col: id}}, Out: []Column{{ID: 3, Name: "id", Type: columnar.TInt64}}}
		return &Limit{Input: proj, Count: 5}
	}
	const before = "Limit 5 offset 0\n" +
		"  Project id -> #3\n" +
		"    Scan t cols=[0 1] [#1 #2] filter=[] limit=-1\n"
	const after = "Limit 5 offset 0\n" +
		"  Project id -> #3\n" +
		"    Scan t cols=[0] [#1] filter=[] limit=5\n"
	p := plan()
	if got := Format(p); got != before {
		t.Errorf("Format before:\n%s\nwant:\n%s", got, before)
	}
	opt, changed := Optimize(p, Options{})
	if got := Format(opt); got != after {
		t.Errorf("Format after:\n%s\nwant:\n%s", got, after)
	}
	if want := []string{"PushLimits", "PruneColumns"}; !reflect.DeepEqual(changed, want) {
		t.Errorf("changed = %v, want %v", changed, want)
	}
	if _, changed := Optimize(plan(), Options{AllOff: true}); len(changed) != 0 {
		t.Errorf("with every rule off, changed = %v", changed)
	}
	if _, changed := Optimize(plan(), Options{Disabled: map[string]bool{"PushLimits": true}}); !reflect.DeepEqual(changed, []string{"PruneColumns"}) {
		t.Errorf("with PushLimits off, changed = %v", changed)
	}
}

// TestFormatBounded: a plan 100,000 nodes deep prints in bounded space.
func TestFormatBounded(t *testing.T) {
	var n Node = &Values{Out: nil}
	for i := 0; i < 100000; i++ {
		n = &Distinct{Input: n}
	}
	s := Format(n)
	if len(s) > 200000 {
		t.Fatalf("Format of a deep plan: %d bytes", len(s))
	}
	if !strings.HasSuffix(s, "… more than 2000 more nodes\n") {
		t.Errorf("Format of a deep plan ends %q", s[len(s)-40:])
	}
}
