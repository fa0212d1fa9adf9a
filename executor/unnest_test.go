package executor

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// unnestInput is rows (id, a, b) whose lists are NULL, empty, short, and
// longer than a batch (so that one input row spans output batches), a
// NULL element among them; b is shorter than a or longer, to pad either.
func unnestInput() ([]columnar.Type, [][]columnar.Value, [][2][]*int64) {
	lt := columnar.ListOf(columnar.TInt64)
	types := []columnar.Type{columnar.TInt64, lt, lt}
	lens := [][2]int{{3, 1}, {-1, 2}, {0, 0}, {1, 4}, {2500, 3}, {2, -1}, {0, 5}, {1030, 1030}}
	var rows [][]columnar.Value
	var lists [][2][]*int64
	for r, ls := range lens {
		row := []columnar.Value{i64(int64(r))}
		var pair [2][]*int64
		for k, n := range ls {
			if n < 0 {
				row = append(row, null(lt))
				continue
			}
			v := columnar.Value{Type: lt, Elems: []columnar.Value{}}
			for e := range n {
				x := int64(100*r + 10*k + e)
				if e == 1 {
					v.Elems = append(v.Elems, null(columnar.TInt64))
					pair[k] = append(pair[k], nil)
					continue
				}
				v.Elems = append(v.Elems, i64(x))
				pair[k] = append(pair[k], &x)
			}
			row = append(row, v)
		}
		rows = append(rows, row)
		lists = append(lists, pair)
	}
	return types, rows, lists
}

func cell(p *int64) string {
	if p == nil {
		return "NULL"
	}
	return strconv.FormatInt(*p, 10)
}

// TestUnnest: one list or two side by side, repeating every input column,
// some, or none (Pass), at every batch size; expected rows built element
// by element here.
func TestUnnest(t *testing.T) {
	types, rows, lists := unnestInput()
	cases := []struct {
		name  string
		exprs []int // list columns unnested
		pass  []int // nil: all
	}{
		{"one list, all columns", []int{1}, nil},
		{"one list, id", []int{1}, []int{0}},
		{"one list, none", []int{1}, []int{}},
		{"two lists, id", []int{1, 2}, []int{0}},
		{"two lists, none", []int{2, 1}, []int{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			for r, row := range rows {
				n := 0
				for _, e := range tc.exprs {
					n = max(n, len(lists[r][e-1]))
				}
				for k := range n {
					s := ""
					pass := tc.pass
					if pass == nil {
						pass = []int{0, 1, 2}
					}
					for _, c := range pass {
						s += row[c].String() + "|"
					}
					for _, e := range tc.exprs {
						var p *int64
						if l := lists[r][e-1]; k < len(l) {
							p = l[k]
						}
						s += cell(p) + "|"
					}
					want = append(want, s[:len(s)-1])
				}
			}
			runSizes(t, func(t *testing.T, n int) {
				exprs := make([]Expr, len(tc.exprs))
				names := make([]string, len(tc.exprs))
				for i, c := range tc.exprs {
					exprs[i], names[i] = ColumnExpr(c, types[c]), fmt.Sprintf("unnest(#%d)", c)
				}
				u := &Unnest{Input: &source{types: types, rows: rows, n: n}, Exprs: exprs, Names: names, Pass: tc.pass}
				if got := drain(t, u); !equalStrings(got, want) {
					t.Fatalf("got %d rows, want %d\nfirst got:  %.10q\nfirst want: %.10q", len(got), len(want), got, want)
				}
			})
		})
	}
}
