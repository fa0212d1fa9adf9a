package executor

import (
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// A probe-first join fills its probe filters before it opens the build
// side, replays the held probe rows (more than one batch, with NULLs) and
// answers as the plain join does.
func TestHashJoinProbeFirst(t *testing.T) {
	for _, kind := range []JoinKind{JoinInner, JoinLeft, JoinSemi, JoinAnti} {
		runSizes(t, func(t *testing.T, n int) {
			plain := &HashJoin{Left: staff(n), Right: depts(n), Kind: kind,
				LeftKeys:  []Expr{ColumnExpr(1, columnar.TInt64)},
				RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
			want := drain(t, plain)
			f := &JoinFilter{Key: 0}
			build := &openCheck{Operator: depts(n), f: f}
			j := &HashJoin{Left: staff(n), Right: build, Kind: kind, ProbeFilters: []*JoinFilter{f},
				LeftKeys:  []Expr{ColumnExpr(1, columnar.TInt64)},
				RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
			got := drain(t, j)
			slices.Sort(got)
			slices.Sort(want)
			if !equalStrings(got, want) {
				t.Fatalf("%s: got %v, want %v", joinKindNames[kind], got, want)
			}
			if !build.readyAtOpen {
				t.Fatal("the build side opened before the probe filter was ready")
			}
			// staff's keys: 1, 2, 9, NULL, 1.
			lo, hi, ok := f.Range()
			if !ok || lo != 1 || hi != 9 || !f.MayContain(2) || f.MayContain(3) {
				t.Fatalf("probe filter range [%d,%d] %v", lo, hi, ok)
			}
		})
	}
}

// Held probe rows replay across batch boundaries: 3000 rows (three
// views, the last partial), every tenth key NULL.
func TestHashJoinProbeFirstViews(t *testing.T) {
	const rows = 3000
	var probe, build [][]columnar.Value
	for i := range rows {
		k := i64(int64(i % 50))
		if i%10 == 0 {
			k = null(columnar.TInt64)
		}
		probe = append(probe, []columnar.Value{k, str("p")})
	}
	for k := range 25 {
		build = append(build, []columnar.Value{i64(int64(k)), str("b")})
	}
	types := []columnar.Type{columnar.TInt64, columnar.TVarchar}
	f := &JoinFilter{Key: 0}
	j := &HashJoin{Left: &source{types: types, rows: probe, n: columnar.MaxBatch},
		Right: &source{types: types, rows: build, n: 7}, Kind: JoinInner, ProbeFilters: []*JoinFilter{f},
		LeftKeys:  []Expr{ColumnExpr(0, columnar.TInt64)},
		RightKeys: []Expr{ColumnExpr(0, columnar.TInt64)}}
	got := drain(t, j)
	// Keys 0..24 match; of the rows with i%50 < 25, those with i%10 = 0
	// are NULL: 60 runs of 50 rows, each with 25 - 3 (i%50 = 0, 10, 20)
	// matching rows.
	if want := 60 * 22; len(got) != want {
		t.Fatalf("%d rows, want %d", len(got), want)
	}
}
