package executor

import (
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// usedFields keeps the fields of each "a|b|c" row that used marks.
func usedFields(rows []string, used []bool) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		var keep []string
		for c, f := range strings.Split(r, "|") {
			if used[c] {
				keep = append(keep, f)
			}
		}
		out[i] = strings.Join(keep, "|")
	}
	slices.Sort(out)
	return out
}

// A join told which output columns are used gathers only those, and Cond
// only over the columns it reads: the used columns' rows are the full
// join's, whether Cond refuses some pairs of a chunk (kept pairs gathered
// again), passes all of them (the rest gathered beside Cond's), reads an
// unused column, or is absent.
func TestHashJoinUsedColumns(t *testing.T) {
	// staff (name, dept) x depts (id, name) on dept = id.
	notDev2 := func(t *testing.T) Expr { // depts.name <> 'dev2': refuses one pair
		return mustCall(t, "<>", columnar.TBool, ColumnExpr(3, columnar.TVarchar), ConstExpr(str("dev2")))
	}
	idSet := func(t *testing.T) Expr { // depts.id >= 1: passes every pair
		return mustCall(t, ">=", columnar.TBool, ColumnExpr(2, columnar.TInt64), ConstExpr(i64(1)))
	}
	cases := []struct {
		name string
		kind JoinKind
		cond func(*testing.T) Expr
		used []bool
		want []string
	}{
		{"inner refuses, cond col unused", JoinInner, notDev2, []bool{true, false, false, false},
			[]string{"ann", "bob", "eve"}},
		{"inner refuses, right name used", JoinInner, notDev2, []bool{false, true, false, true},
			[]string{"1|ops", "1|ops", "2|dev"}},
		{"inner passes all", JoinInner, idSet, []bool{true, false, false, true},
			[]string{"ann|ops", "bob|dev", "bob|dev2", "eve|ops"}},
		{"inner no cond, none used", JoinInner, nil, []bool{false, false, false, false},
			[]string{"", "", "", ""}},
		{"left refuses", JoinLeft, notDev2, []bool{true, false, false, true},
			[]string{"ann|ops", "bob|dev", "cid|NULL", "dee|NULL", "eve|ops"}},
		{"right refuses", JoinRight, notDev2, []bool{true, false, true, false},
			[]string{"NULL|2", "NULL|3", "NULL|NULL", "ann|1", "bob|2", "eve|1"}},
		{"full passes all", JoinFull, idSet, []bool{false, true, false, true},
			[]string{"1|ops", "1|ops", "2|dev", "2|dev2", "9|NULL", "NULL|NULL", "NULL|hr", "NULL|nil"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runSizes(t, func(t *testing.T, n int) {
				mk := func(used []bool) *HashJoin {
					j := &HashJoin{Left: staff(n), Right: depts(n), Kind: tc.kind, Used: used,
						LeftKeys:  []Expr{ColumnExpr(1, columnar.TInt64)},
						RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
					if tc.cond != nil {
						j.Cond = tc.cond(t)
					}
					return j
				}
				got := usedFields(drain(t, mk(tc.used)), tc.used)
				if !equalStrings(got, tc.want) {
					t.Fatalf("got %q, want %q", got, tc.want)
				}
				// The same join gathering every column agrees.
				if all := usedFields(drain(t, mk(nil)), tc.used); !equalStrings(all, tc.want) {
					t.Fatalf("without Used: got %q, want %q", all, tc.want)
				}
			})
		})
	}
}

func TestExprCols(t *testing.T) {
	cond := mustCall(t, "<", columnar.TBool, ColumnExpr(0, columnar.TInt64), ColumnExpr(3, columnar.TInt64))
	cols := make([]bool, 5)
	if !exprCols(cond, cols) || !slices.Equal(cols, []bool{true, false, false, true, false}) {
		t.Fatalf("a < b: %v", cols)
	}
	// A column past the layout cannot be placed: assume all.
	if exprCols(ColumnExpr(7, columnar.TInt64), make([]bool, 5)) {
		t.Fatal("column 7 of 5 reported known")
	}
}
