package executor

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func TestHolisticAggregates(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input:  people(n),
			Groups: []Expr{ColumnExpr(1, columnar.TVarchar)},
			Aggs: []AggSpec{
				{Kind: AggMedian, Arg: ColumnExpr(2, columnar.TFloat64), Type: columnar.TFloat64},
				{Kind: AggQuantileCont, Arg: ColumnExpr(0, columnar.TInt64), Type: columnar.TFloat64, Param: f64(0.25)},
				{Kind: AggStringAgg, Arg: ColumnExpr(1, columnar.TVarchar), Type: columnar.TVarchar, Param: str("+")},
			},
		}
		got := drain(t, agg)
		// ann: ids 1 4 8, scores 3.5 2 0.5; bob: 2 6 9, 1 -1 2; cid 3 NULL; dee 5 3.5; eve 7 10.25.
		// quantile 0.25 of (1 4 8): pos 0.5 → 2.5; of (2 6 9): 4.0.
		want := []string{"ann|2.0|2.5|ann+ann+ann", "bob|1.0|4.0|bob+bob+bob", "cid|NULL|3.0|cid", "dee|3.5|5.0|dee", "eve|10.25|7.0|eve"}
		if !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}
