package executor

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func TestArgMinMax(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		id, name, score := ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TVarchar), ColumnExpr(2, columnar.TFloat64)
		agg := &HashAgg{
			Input:  people(n),
			Groups: []Expr{name},
			Aggs: []AggSpec{
				{Kind: AggArgMax, Arg: id, Arg2: score, Type: columnar.TInt64},
				{Kind: AggArgMin, Arg: id, Arg2: score, Type: columnar.TInt64},
				{Kind: AggArgMax, Arg: score, Arg2: name, Type: columnar.TFloat64},
			},
		}
		// ann: scores 3.5 (id 1), 2 (4), 0.5 (8); bob: 1 (2), -1 (6), 2 (9);
		// cid: NULL score (no val: NULL); dee 3.5 (5); eve 10.25 (7). A
		// group's names all tie: the first row seen wins (ann id 1, bob id 2),
		// and cid's only row has a NULL arg, which is the answer.
		want := []string{"ann|1|8|3.5", "bob|9|6|1.0", "cid|NULL|NULL|NULL", "dee|5|5|3.5", "eve|7|7|10.25"}
		if got := drain(t, agg); !equalStrings(got, want) {
			t.Fatalf("grouped: got %v, want %v", got, want)
		}
		whole := &HashAgg{
			Input: people(n),
			Aggs: []AggSpec{
				{Kind: AggArgMax, Arg: name, Arg2: score, Type: columnar.TVarchar},
				{Kind: AggArgMin, Arg: name, Arg2: score, Type: columnar.TVarchar},
				{Kind: AggArgMax, Arg: id, Arg2: ConstExpr(i64(1)), Type: columnar.TInt64},
				{Kind: AggArgMin, Arg: id, Arg2: ConstExpr(null(columnar.TInt64)), Type: columnar.TInt64},
			},
		}
		// max score 10.25 is eve, min -1 bob; a constant val ties every
		// row (the first, id 1, wins); a NULL val never counts
		want = []string{"eve|bob|1|NULL"}
		if got := drain(t, whole); !equalStrings(got, want) {
			t.Fatalf("whole table: got %v, want %v", got, want)
		}
	})
}
