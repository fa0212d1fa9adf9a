package executor

import (
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// depts: id, name; id 3 has no people, a NULL id matches nothing.
func depts(n int) *source {
	rows := [][]columnar.Value{
		{i64(1), str("ops")},
		{i64(2), str("dev")},
		{i64(3), str("hr")},
		{null(columnar.TInt64), str("nil")},
		{i64(2), str("dev2")},
	}
	return &source{types: []columnar.Type{columnar.TInt64, columnar.TVarchar}, rows: rows, n: n}
}

// staff: name, dept; dept 9 has no department, NULL dept matches nothing.
func staff(n int) *source {
	rows := [][]columnar.Value{
		{str("ann"), i64(1)},
		{str("bob"), i64(2)},
		{str("cid"), i64(9)},
		{str("dee"), null(columnar.TInt64)},
		{str("eve"), i64(1)},
	}
	return &source{types: []columnar.Type{columnar.TVarchar, columnar.TInt64}, rows: rows, n: n}
}

func TestHashJoinKinds(t *testing.T) {
	cases := []struct {
		kind JoinKind
		want []string
	}{
		{JoinInner, []string{"ann|1|1|ops", "bob|2|2|dev", "bob|2|2|dev2", "eve|1|1|ops"}},
		{JoinLeft, []string{"ann|1|1|ops", "bob|2|2|dev", "bob|2|2|dev2", "cid|9|NULL|NULL", "dee|NULL|NULL|NULL", "eve|1|1|ops"}},
		{JoinRight, []string{"NULL|NULL|3|hr", "NULL|NULL|NULL|nil", "ann|1|1|ops", "bob|2|2|dev", "bob|2|2|dev2", "eve|1|1|ops"}},
		{JoinFull, []string{"NULL|NULL|3|hr", "NULL|NULL|NULL|nil", "ann|1|1|ops", "bob|2|2|dev", "bob|2|2|dev2", "cid|9|NULL|NULL", "dee|NULL|NULL|NULL", "eve|1|1|ops"}},
		{JoinSemi, []string{"ann|1", "bob|2", "eve|1"}},
		{JoinAnti, []string{"cid|9", "dee|NULL"}},
		{JoinMark, []string{"ann|1|true", "bob|2|true", "cid|9|NULL", "dee|NULL|NULL", "eve|1|true"}},
	}
	for _, tc := range cases {
		t.Run(joinKindNames[tc.kind], func(t *testing.T) {
			runSizes(t, func(t *testing.T, n int) {
				j := &HashJoin{Left: staff(n), Right: depts(n), Kind: tc.kind, NullAware: true,
					LeftKeys:  []Expr{ColumnExpr(1, columnar.TInt64)},
					RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
				got := drain(t, j)
				slices.Sort(got)
				if !equalStrings(got, tc.want) {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			})
		})
	}
}

func TestHashJoinResidualAndNestedLoop(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		// staff.dept = depts.id AND depts.name <> 'dev2' (residual over left ++ right).
		cond := mustCall(t, "<>", columnar.TBool, ColumnExpr(3, columnar.TVarchar), ConstExpr(str("dev2")))
		j := &HashJoin{Left: staff(n), Right: depts(n), Kind: JoinLeft, Cond: cond,
			LeftKeys:  []Expr{ColumnExpr(1, columnar.TInt64)},
			RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
		got := drain(t, j)
		slices.Sort(got)
		want := []string{"ann|1|1|ops", "bob|2|2|dev", "cid|9|NULL|NULL", "dee|NULL|NULL|NULL", "eve|1|1|ops"}
		if !equalStrings(got, want) {
			t.Fatalf("residual: got %v, want %v", got, want)
		}
		// Nested loop: staff.dept > depts.id; 5 x 5 candidates.
		lt := mustCall(t, ">", columnar.TBool, ColumnExpr(1, columnar.TInt64), ColumnExpr(2, columnar.TInt64))
		got = drain(t, &HashJoin{Left: staff(n), Right: depts(n), Kind: JoinInner, Cond: lt})
		slices.Sort(got)
		want = []string{"bob|2|1|ops", "cid|9|1|ops", "cid|9|2|dev", "cid|9|2|dev2", "cid|9|3|hr"}
		if !equalStrings(got, want) {
			t.Fatalf("nested loop: got %v, want %v", got, want)
		}
	})
}

// TestHashJoinRightSemiAnti builds the preserved side (depts) and probes
// with staff: depts with staff (semi) are 1 and 2 (both rows of 2), without
// (anti) 3 and the NULL id; a residual on the probe row filters the marks.
func TestHashJoinRightSemiAnti(t *testing.T) {
	for _, tc := range []struct {
		kind JoinKind
		cond bool // staff.name <> 'bob'
		want []string
	}{
		{JoinRightSemi, false, []string{"1|ops", "2|dev", "2|dev2"}},
		{JoinRightAnti, false, []string{"3|hr", "NULL|nil"}},
		{JoinRightSemi, true, []string{"1|ops"}},
		{JoinRightAnti, true, []string{"2|dev", "2|dev2", "3|hr", "NULL|nil"}},
	} {
		t.Run(joinKindNames[tc.kind], func(t *testing.T) {
			runSizes(t, func(t *testing.T, n int) {
				j := &HashJoin{Left: staff(n), Right: depts(n), Kind: tc.kind,
					LeftKeys:  []Expr{ColumnExpr(1, columnar.TInt64)},
					RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
				if tc.cond {
					j.Cond = mustCall(t, "<>", columnar.TBool, ColumnExpr(0, columnar.TVarchar), ConstExpr(str("bob")))
				}
				got := drain(t, j)
				slices.Sort(got)
				if !equalStrings(got, tc.want) {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			})
		})
	}
}

// TestHashJoinBuildTailPastMatchedChunk: the unmatched build rows of a
// Right join come out even when a whole first chunk of build rows matched.
func TestHashJoinBuildTailPastMatchedChunk(t *testing.T) {
	const n = 3000
	var build, probe [][]columnar.Value
	for i := range n {
		build = append(build, []columnar.Value{i64(int64(i))})
		if i < 2500 {
			probe = append(probe, []columnar.Value{i64(int64(i))})
		}
	}
	types := []columnar.Type{columnar.TInt64}
	j := &HashJoin{Left: &source{types: types, rows: probe, n: 1024}, Right: &source{types: types, rows: build, n: 1024},
		Kind: JoinRightAnti, LeftKeys: []Expr{ColumnExpr(0, columnar.TInt64)}, RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
	if got := drain(t, j); len(got) != 500 || got[0] != "2500" {
		t.Fatalf("got %d rows starting %v, want 500 starting 2500", len(got), got[:min(1, len(got))])
	}
	j = &HashJoin{Left: &source{types: types, rows: probe, n: 1024}, Right: &source{types: types, rows: build, n: 1024},
		Kind: JoinRight, LeftKeys: []Expr{ColumnExpr(0, columnar.TInt64)}, RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
	if got := drain(t, j); len(got) != n {
		t.Fatalf("right join: got %d rows, want %d", len(got), n)
	}
}
