package executor

import (
	"fmt"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// sharedJoin is copies HashJoins of kind over one shared build of right,
// copy w probing the rows w, w+copies, … of probe, under a Gather: the
// plan a parallel pipeline makes.
func sharedJoin(kind JoinKind, probe *source, right Operator, copies int) Operator {
	shared := &JoinBuild{Right: right, Probes: copies}
	ins := make([]Operator, copies)
	for w := range ins {
		part := &source{types: probe.types, n: probe.n}
		for i, r := range probe.rows {
			if i%copies == w {
				part.rows = append(part.rows, r)
			}
		}
		ins[w] = &HashJoin{Left: part, Shared: shared, Kind: kind,
			LeftKeys:  []Expr{ColumnExpr(1, columnar.TInt64)},
			RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
	}
	return &Gather{Inputs: ins}
}

// The build rows no copy matched come out once, after every copy's probe:
// staff ⋈ depts as in TestHashJoinKinds, the staff split over 1, 2, 4 and
// 7 copies (some with no rows at all).
func TestSharedJoinBuildTail(t *testing.T) {
	cases := []struct {
		kind JoinKind
		want []string
	}{
		{JoinRight, []string{"NULL|NULL|3|hr", "NULL|NULL|NULL|nil", "ann|1|1|ops", "bob|2|2|dev", "bob|2|2|dev2", "eve|1|1|ops"}},
		{JoinFull, []string{"NULL|NULL|3|hr", "NULL|NULL|NULL|nil", "ann|1|1|ops", "bob|2|2|dev", "bob|2|2|dev2", "cid|9|NULL|NULL", "dee|NULL|NULL|NULL", "eve|1|1|ops"}},
		{JoinRightSemi, []string{"1|ops", "2|dev", "2|dev2"}},
		{JoinRightAnti, []string{"3|hr", "NULL|nil"}},
	}
	for _, tc := range cases {
		for _, copies := range []int{1, 2, 4, 7} {
			t.Run(fmt.Sprint(joinKindNames[tc.kind], "/", copies), func(t *testing.T) {
				runSizes(t, func(t *testing.T, n int) {
					got := drain(t, sharedJoin(tc.kind, staff(n), depts(n), copies))
					slices.Sort(got)
					if !equalStrings(got, tc.want) {
						t.Fatalf("got %v, want %v", got, tc.want)
					}
				})
			})
		}
	}
}

// Empty sides and everything matched, over copies that see several
// batches each: build keys 0..2999, probe keys 0..2499 then (all matched)
// 0..2999 twice, then no probe rows, then no build rows.
func TestSharedJoinBuildTailEdges(t *testing.T) {
	types := []columnar.Type{columnar.TInt64, columnar.TInt64}
	rows := func(lo, hi, times int) [][]columnar.Value {
		var out [][]columnar.Value
		for range times {
			for i := lo; i < hi; i++ {
				out = append(out, []columnar.Value{i64(int64(i)), i64(int64(i))})
			}
		}
		return out
	}
	for _, tc := range []struct {
		name         string
		probe, build [][]columnar.Value
		kind         JoinKind
		want         int    // rows out
		has, hasNot  string // a row that comes out, one that does not
	}{
		{"anti 500 unmatched", rows(0, 2500, 1), rows(0, 3000, 1), JoinRightAnti, 500, "2500|2500", "2499|2499"},
		{"right 500 unmatched", rows(0, 2500, 1), rows(0, 3000, 1), JoinRight, 3000, "NULL|NULL|2999|2999", "NULL|NULL|2499|2499"},
		{"all matched anti", rows(0, 3000, 2), rows(0, 3000, 1), JoinRightAnti, 0, "", "0|0"},
		{"all matched semi", rows(0, 3000, 2), rows(0, 3000, 1), JoinRightSemi, 3000, "2999|2999", ""},
		{"all matched full", rows(0, 3000, 2), rows(0, 3000, 1), JoinFull, 6000, "2999|2999|2999|2999", "NULL|NULL|0|0"},
		{"no probe rows", nil, rows(0, 3000, 1), JoinFull, 3000, "NULL|NULL|0|0", ""},
		{"no build rows", rows(0, 2500, 1), nil, JoinFull, 2500, "0|0|NULL|NULL", ""},
		{"nothing", nil, nil, JoinRight, 0, "", ""},
	} {
		for _, copies := range []int{1, 2, 4} {
			t.Run(fmt.Sprint(tc.name, "/", copies), func(t *testing.T) {
				probe := &source{types: types, rows: tc.probe, n: 1000}
				build := &source{types: types, rows: tc.build, n: 700}
				got := drain(t, sharedJoin(tc.kind, probe, build, copies))
				if len(got) != tc.want {
					t.Fatalf("got %d rows, want %d", len(got), tc.want)
				}
				if tc.has != "" && !slices.Contains(got, tc.has) || tc.hasNot != "" && slices.Contains(got, tc.hasNot) {
					t.Fatalf("want %q among the rows and %q not", tc.has, tc.hasNot)
				}
			})
		}
	}
}
