package executor

import (
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func ints(n int, vals ...columnar.Value) *source {
	rows := make([][]columnar.Value, len(vals))
	for i, v := range vals {
		rows[i] = []columnar.Value{v}
	}
	return &source{types: []columnar.Type{columnar.TInt64}, rows: rows, n: n}
}

func TestSetOp(t *testing.T) {
	nl := null(columnar.TInt64)
	// left {1,1,2,NULL,NULL,3}, right {1,3,3,NULL,4}
	left := func(n int) *source { return ints(n, i64(1), i64(1), i64(2), nl, nl, i64(3)) }
	right := func(n int) *source { return ints(n, i64(1), i64(3), i64(3), nl, i64(4)) }
	cases := []struct {
		kind SetOpKind
		all  bool
		want []string
	}{
		{SetUnion, true, []string{"1", "1", "1", "2", "3", "3", "3", "4", "NULL", "NULL", "NULL"}},
		{SetUnion, false, []string{"1", "2", "3", "4", "NULL"}},
		{SetIntersect, false, []string{"1", "3", "NULL"}},
		{SetIntersect, true, []string{"1", "3", "NULL"}},
		{SetExcept, false, []string{"2"}},
		{SetExcept, true, []string{"1", "2", "NULL"}},
	}
	for _, tc := range cases {
		op := &SetOp{Kind: tc.kind, All: tc.all}
		t.Run(op.String(), func(t *testing.T) {
			runSizes(t, func(t *testing.T, n int) {
				got := drain(t, &SetOp{Left: left(n), Right: right(n), Kind: tc.kind, All: tc.all})
				slices.Sort(got)
				if !equalStrings(got, tc.want) {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			})
		})
	}
}
