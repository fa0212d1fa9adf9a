package planner

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestPruneUnnest: PruneColumns drops the columns nobody reads from the
// scan below an Unnest and from the columns it repeats: a list read only
// to be unnested is read but not repeated on every element's row.
func TestPruneUnnest(t *testing.T) {
	lt := columnar.ListOf(columnar.TInt32)
	tbl := &statsTable{schema: columnar.Schema{{Name: "id", Type: columnar.TInt64}, {Name: "l", Type: lt}, {Name: "x", Type: columnar.TFloat64}}}
	id := Column{ID: 1, Name: "id", Type: columnar.TInt64}
	l := Column{ID: 2, Name: "l", Type: lt}
	x := Column{ID: 3, Name: "x", Type: columnar.TFloat64}
	u := Column{ID: 4, Name: "unnest", Type: columnar.TInt32}
	plan := func(out ...Column) Node {
		scan := &Scan{Table: tbl, Name: "t", TableCols: []int{0, 1, 2}, Cols: []Column{id, l, x}, Limit: -1}
		un := &Unnest{Input: scan, Exprs: []Expr{&ColRef{Col: l}}, Out: []Column{u}}
		proj := &Project{Input: un}
		for i, c := range out {
			proj.Exprs = append(proj.Exprs, &ColRef{Col: c})
			proj.Out = append(proj.Out, Column{ID: ColID(10 + i), Name: c.Name, Type: c.Type})
		}
		return proj
	}
	cases := []struct {
		name string
		out  []Column
		want string
	}{
		{"element only", []Column{u}, "Project unnest -> #10\n" +
			"  Unnest l -> #4 pass=[]\n" +
			"    Scan t cols=[1] [#2] filter=[] limit=-1\n"},
		{"element and id", []Column{id, u}, "Project id, unnest -> #10 #11\n" +
			"  Unnest l -> #4 pass=[#1]\n" +
			"    Scan t cols=[0 1] [#1 #2] filter=[] limit=-1\n"},
		{"element and the list", []Column{u, l}, "Project unnest, l -> #10 #11\n" +
			"  Unnest l -> #4 pass=[#2]\n" +
			"    Scan t cols=[1] [#2] filter=[] limit=-1\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := plan(tc.out...)
			if got := Format(pruneColumns(p)); got != tc.want {
				t.Errorf("pruned:\n%s\nwant:\n%s", got, tc.want)
			}
			// Without the rule the Unnest repeats every input column.
			if got, want := len(p.Children()[0].Schema()), 4; got != want {
				t.Errorf("unpruned Unnest has %d columns, want %d", got, want)
			}
		})
	}
}
