package executor

import (
	"context"
	"io"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// labels is a build side keyed by strings: "a" twice (duplicates), "b",
// "z" (no probe row has it) and a NULL key.
func labels(n int) *source {
	rows := [][]columnar.Value{
		{str("a"), str("A1")}, {str("b"), str("B")}, {str("z"), str("Z")},
		{columnar.NullValue(columnar.TVarchar), str("N")}, {str("a"), str("A2")},
	}
	return &source{types: []columnar.Type{columnar.TVarchar, columnar.TVarchar}, rows: rows, n: n}
}

// drainPlain is drain that also fails on a coded vector in the output:
// operators above a join never asked for codes.
func drainPlain(t *testing.T, op Operator) []string {
	t.Helper()
	return drainChecked(t, op, func(b *columnar.Batch) {
		for c, v := range b.Cols {
			if v.Dict != nil {
				t.Fatalf("output column %d is dictionary-coded", c)
			}
		}
	})
}

// TestHashJoinProbeCodes probes a string-keyed build side with fruits,
// whose key comes coded with a new dictionary per batch (and plain every
// third batch): fruits b,a,NULL,c,a,b,a,NULL,d,a (x = 1..10) against
// labels a→A1,A2  b→B  z→Z  NULL→N. The expected rows are worked out by
// hand from those lists.
func TestHashJoinProbeCodes(t *testing.T) {
	inner := []string{
		"a|10|a|A1", "a|10|a|A2", "a|2|a|A1", "a|2|a|A2", "a|5|a|A1", "a|5|a|A2", "a|7|a|A1", "a|7|a|A2",
		"b|1|b|B", "b|6|b|B",
	}
	unmatched := []string{"NULL|3|NULL|NULL", "NULL|8|NULL|NULL", "c|4|NULL|NULL", "d|9|NULL|NULL"}
	left := slices.Sorted(slices.Values(append(slices.Clone(inner), unmatched...)))
	cases := []struct {
		kind JoinKind
		want []string
	}{
		{JoinInner, inner},
		{JoinLeft, left},
		{JoinSemi, []string{"a|10", "a|2", "a|5", "a|7", "b|1", "b|6"}},
		{JoinAnti, []string{"NULL|3", "NULL|8", "c|4", "d|9"}},
		{JoinMark, []string{"NULL|3|false", "NULL|8|false", "a|10|true", "a|2|true", "a|5|true", "a|7|true", "b|1|true", "b|6|true", "c|4|false", "d|9|false"}},
	}
	for _, tc := range cases {
		t.Run(joinKindNames[tc.kind], func(t *testing.T) {
			runSizes(t, func(t *testing.T, n int) {
				for _, codedBuild := range []bool{false, true} {
					var right Operator = labels(n)
					if codedBuild { // a build side that came coded is keyed by its strings
						right = &codedSource{source: labels(n)}
					}
					j := &HashJoin{Left: fruits(n), Right: right, Kind: tc.kind,
						LeftKeys:  []Expr{ColumnExpr(0, columnar.TVarchar)},
						RightKeys: []Expr{ColumnExpr(0, columnar.TVarchar)}}
					got := drainPlain(t, j)
					slices.Sort(got)
					if !equalStrings(got, tc.want) {
						t.Fatalf("coded build %v: got %v, want %v", codedBuild, got, tc.want)
					}
				}
			})
		})
	}
}

// TestHashJoinProbeCodesTwoKeys: with two keys the coded one is decoded
// and hashed with the other (fruits.s, fruits.x) = (labels.k, 2) matches
// only a|2.
func TestHashJoinProbeCodesTwoKeys(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		j := &HashJoin{Left: fruits(n), Right: labels(n), Kind: JoinSemi,
			LeftKeys:  []Expr{ColumnExpr(0, columnar.TVarchar), ColumnExpr(1, columnar.TInt64)},
			RightKeys: []Expr{ColumnExpr(0, columnar.TVarchar), ConstExpr(i64(2))}}
		if got := drainPlain(t, j); !equalStrings(got, []string{"a|2"}) {
			t.Fatalf("got %v, want [a|2]", got)
		}
	})
}

// TestRowStoreDecodesCodes: a coded vector reaching a sort/top-k store is
// stored as its strings.
func TestRowStoreDecodesCodes(t *testing.T) {
	src := fruits(4)
	ctx := context.Background()
	if err := src.Open(ctx); err != nil {
		t.Fatal(err)
	}
	s := newChunkedStore(src.Types(), 0)
	for {
		b, err := src.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		s.appendRows(b, b.Cols)
	}
	var got []string
	v := &columnar.Vector{Type: src.Types()[0]}
	s.copyRange(v, 0, 0, s.n)
	for r := range s.n {
		got = append(got, v.Value(r).String())
	}
	want := []string{"b", "a", "NULL", "c", "a", "b", "a", "NULL", "d", "a"}
	if !equalStrings(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestHashJoinProbeCodesReopen: a join opened again (a recursive CTE's
// step, a re-run subquery) has a new build table; a probe dictionary it
// saw before (a CTable column keeps one for the whole table) must be
// looked up again.
func TestHashJoinProbeCodesReopen(t *testing.T) {
	d := dict.New("a", "b")
	pb := columnar.NewBatch([]columnar.Type{columnar.TVarchar}, 2)
	pb.Len = 2
	copy(dict.Set(pb.Cols[0], d, 2), []int32{0, 1})
	probe := &batchesSource{types: []columnar.Type{columnar.TVarchar}, bs: []*columnar.Batch{pb}}
	build := &source{types: []columnar.Type{columnar.TVarchar}, rows: [][]columnar.Value{{str("a")}}, n: 1024}
	j := &HashJoin{Left: probe, Right: build, Kind: JoinInner,
		LeftKeys: []Expr{ColumnExpr(0, columnar.TVarchar)}, RightKeys: []Expr{ColumnExpr(0, columnar.TVarchar)}}
	if got := drainPlain(t, j); !equalStrings(got, []string{"a|a"}) {
		t.Fatalf("first run: got %v, want [a|a]", got)
	}
	build.rows = [][]columnar.Value{{str("b")}}
	if got := drainPlain(t, j); !equalStrings(got, []string{"b|b"}) {
		t.Fatalf("second run: got %v, want [b|b]", got)
	}
}
