package executor

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestWindowArgOrder: an aggregate's own ORDER BY orders its frame's rows,
// whatever the window's order: string_agg of names by score per name
// over the whole partition, list of ids by score descending over a
// sliding ROWS frame ordered by id, and last_value by score.
func TestWindowArgOrder(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		id := ColumnExpr(0, columnar.TInt64)
		name := ColumnExpr(1, columnar.TVarchar)
		score := ColumnExpr(2, columnar.TFloat64)
		idText := NewCast(id, columnar.TVarchar, false)
		w := &Window{Input: people(n), Funcs: []WindowFunc{
			{Name: "string_agg", Args: []Expr{idText}, Partition: []Expr{name}, Type: columnar.TVarchar,
				Param: columnar.StringValue(","), ArgOrder: []SortKey{{Expr: score}},
				Frame: WindowFrame{StartUnbounded: true, EndUnbounded: true}},
			{Name: "list", Args: []Expr{id}, Order: []SortKey{{Expr: id}}, Type: columnar.ListOf(columnar.TInt64),
				ArgOrder: []SortKey{{Expr: score, Desc: true, NullsFirst: true}},
				Frame:    WindowFrame{Rows: true, Start: -1, End: 1}},
			{Name: "last_value", Args: []Expr{id}, Type: columnar.TInt64, ArgOrder: []SortKey{{Expr: score}},
				Frame: WindowFrame{StartUnbounded: true, EndUnbounded: true}},
		}}
		got := drain(t, w)
		// scores by id: 3.5 1.0 NULL 2.0 3.5 -1 10.25 0.5 2.0. ann (1, 4, 8)
		// by score: 8 4 1; bob (2, 6, 9): 6 2 9. NULLs sort last
		// ascending, so the last by score is cid's 3.
		want := []string{
			"1|ann|3.5|8,4,1|[1, 2]|3",
			"2|bob|1.0|6,2,9|[3, 1, 2]|3",
			"3|cid|NULL|3|[3, 4, 2]|3",
			"4|ann|2.0|8,4,1|[3, 5, 4]|3",
			"5|dee|3.5|5|[5, 4, 6]|3",
			"6|bob|-1.0|6,2,9|[7, 5, 6]|3",
			"7|eve|10.25|7|[7, 8, 6]|3",
			"8|ann|0.5|8,4,1|[7, 9, 8]|3",
			"9|bob|2.0|6,2,9|[9, 8]|3",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
}
