package executor

import (
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// pairs builds a source of (a, b, tag) rows; a NULL a or b never matches.
func pairs(n int, rows [][3]any) *source {
	var vals [][]columnar.Value
	for _, r := range rows {
		row := make([]columnar.Value, 3)
		for c := range 2 {
			if r[c] == nil {
				row[c] = null(columnar.TInt64)
			} else {
				row[c] = i64(int64(r[c].(int)))
			}
		}
		row[2] = str(r[2].(string))
		vals = append(vals, row)
	}
	return &source{types: []columnar.Type{columnar.TInt64, columnar.TInt64, columnar.TVarchar}, rows: vals, n: n}
}

// A join on two integer keys matches on both (not on either alone), keeps
// duplicate build keys in build order, and never matches a NULL key.
func TestHashJoinTwoIntKeys(t *testing.T) {
	build := [][3]any{{1, 1, "p"}, {1, 2, "q"}, {2, 1, "r"}, {1, 2, "s"}, {nil, 1, "n"}, {3, nil, "m"}}
	probe := [][3]any{{1, 2, "A"}, {2, 2, "B"}, {2, 1, "C"}, {nil, 1, "D"}, {3, 3, "E"}}
	want := map[JoinKind][]string{
		JoinInner: {"1|2|A|1|2|q", "1|2|A|1|2|s", "2|1|C|2|1|r"},
		JoinLeft:  {"1|2|A|1|2|q", "1|2|A|1|2|s", "2|1|C|2|1|r", "2|2|B|NULL|NULL|NULL", "3|3|E|NULL|NULL|NULL", "NULL|1|D|NULL|NULL|NULL"},
		JoinAnti:  {"2|2|B", "3|3|E", "NULL|1|D"},
	}
	for kind, w := range want {
		runSizes(t, func(t *testing.T, n int) {
			j := &HashJoin{Left: pairs(n, probe), Right: pairs(n, build), Kind: kind,
				LeftKeys:  []Expr{ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TInt64)},
				RightKeys: []Expr{ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TInt64)}}
			got := drain(t, j)
			slices.Sort(got)
			if !equalStrings(got, w) {
				t.Fatalf("%s: got %v, want %v", joinKindNames[kind], got, w)
			}
		})
	}
}
