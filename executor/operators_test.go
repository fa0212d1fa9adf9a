package executor

import (
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// people: id, name, score (score NULL for id 3), 9 rows.
func people(n int) *source {
	rows := [][]columnar.Value{
		{i64(1), str("ann"), f64(3.5)},
		{i64(2), str("bob"), f64(1.0)},
		{i64(3), str("cid"), null(columnar.TFloat64)},
		{i64(4), str("ann"), f64(2.0)},
		{i64(5), str("dee"), f64(3.5)},
		{i64(6), str("bob"), f64(-1.0)},
		{i64(7), str("eve"), f64(10.25)},
		{i64(8), str("ann"), f64(0.5)},
		{i64(9), str("bob"), f64(2.0)},
	}
	return &source{types: []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TFloat64}, rows: rows, n: n}
}

func mustCall(t *testing.T, fn string, ret columnar.Type, args ...Expr) Expr {
	t.Helper()
	e, err := NewCall(fn, args, ret)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestFilterThreeValued(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		// score > 2 keeps 1, 5, 7; NULL score (id 3) is dropped, not kept.
		cond := mustCall(t, ">", columnar.TBool, ColumnExpr(2, columnar.TFloat64), ConstExpr(f64(2)))
		got := drain(t, &Filter{Input: people(n), Cond: cond})
		want := []string{"1|ann|3.5", "5|dee|3.5", "7|eve|10.25"}
		if !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		// NOT (score > 2) keeps 2, 4, 6, 8, 9: NOT NULL is NULL, so id 3 stays out.
		not := mustCall(t, "not", columnar.TBool, cond)
		got = drain(t, &Filter{Input: people(n), Cond: not})
		want = []string{"2|bob|1.0", "4|ann|2.0", "6|bob|-1.0", "8|ann|0.5", "9|bob|2.0"}
		if !equalStrings(got, want) {
			t.Fatalf("NOT: got %v, want %v", got, want)
		}
	})
}

func TestProjectArithmetic(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		// id * 10 + 1, score * 2 (NULL stays NULL)
		e1 := mustCall(t, "+", columnar.TInt64, mustCall(t, "*", columnar.TInt64, ColumnExpr(0, columnar.TInt64), ConstExpr(i64(10))), ConstExpr(i64(1)))
		e2 := mustCall(t, "*", columnar.TFloat64, ColumnExpr(2, columnar.TFloat64), ConstExpr(f64(2)))
		got := drain(t, &Project{Input: people(n), Exprs: []Expr{e1, e2}})
		want := []string{"11|7.0", "21|2.0", "31|NULL", "41|4.0", "51|7.0", "61|-2.0", "71|20.5", "81|1.0", "91|4.0"}
		if !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

func TestHashAggByString(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input:  people(n),
			Groups: []Expr{ColumnExpr(1, columnar.TVarchar)},
			Aggs: []AggSpec{
				{Kind: AggCountStar, Type: columnar.TInt64},
				{Kind: AggSum, Arg: ColumnExpr(2, columnar.TFloat64), Type: columnar.TFloat64},
				{Kind: AggMax, Arg: ColumnExpr(0, columnar.TInt64), Type: columnar.TInt64},
				{Kind: AggCount, Arg: ColumnExpr(2, columnar.TFloat64), Type: columnar.TInt64},
				{Kind: AggAvg, Arg: ColumnExpr(2, columnar.TFloat64), Type: columnar.TFloat64},
			},
		}
		got := drain(t, agg)
		slices.Sort(got)
		// ann: 3.5+2+0.5=6, max id 8; bob: 1-1+2=2, max 9; cid: NULL sum, count 0.
		want := []string{
			"ann|3|6.0|8|3|2.0",
			"bob|3|2.0|9|3|0.6666666666666666",
			"cid|1|NULL|3|0|NULL",
			"dee|1|3.5|5|1|3.5",
			"eve|1|10.25|7|1|10.25",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

func TestHashAggEmptyInputNoGroups(t *testing.T) {
	src := &source{types: []columnar.Type{columnar.TInt64}, n: 7}
	agg := &HashAgg{Input: src, Aggs: []AggSpec{
		{Kind: AggCountStar, Type: columnar.TInt64},
		{Kind: AggSum, Arg: ColumnExpr(0, columnar.TInt64), Type: columnar.TInt64},
	}}
	got := drain(t, agg)
	if want := []string{"0|NULL"}; !equalStrings(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestCountDistinct(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{Input: people(n), Aggs: []AggSpec{
			{Kind: AggCount, Distinct: true, Arg: ColumnExpr(1, columnar.TVarchar), Type: columnar.TInt64},
			{Kind: AggCount, Distinct: true, Arg: ColumnExpr(2, columnar.TFloat64), Type: columnar.TInt64},
			{Kind: AggSum, Distinct: true, Arg: ColumnExpr(2, columnar.TFloat64), Type: columnar.TFloat64},
		}}
		// names: ann bob cid dee eve = 5; scores distinct non-NULL: 3.5 1 2 -1 10.25 0.5 = 6, sum 16.25
		got := drain(t, agg)
		if want := []string{"5|6|16.25"}; !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

func TestSortStableNullsLast(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		s := &Sort{Input: people(n), Keys: []SortKey{{Expr: ColumnExpr(2, columnar.TFloat64), Desc: true}}}
		var ids []string
		for _, r := range drain(t, s) {
			ids = append(ids, r[:1])
		}
		// 10.25(7) 3.5(1,5 stable) 2.0(4,9) 1.0(2) 0.5(8) -1(6) NULL(3) last even when DESC.
		want := []string{"7", "1", "5", "4", "9", "2", "8", "6", "3"}
		if !equalStrings(ids, want) {
			t.Fatalf("got %v, want %v", ids, want)
		}
	})
}

func TestTopKMatchesSortLimit(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		tk := &TopK{Input: people(n), Keys: []SortKey{{Expr: ColumnExpr(2, columnar.TFloat64)}}, Count: 3, Offset: 1}
		var ids []string
		for _, r := range drain(t, tk) {
			ids = append(ids, r[:1])
		}
		// ascending: -1(6) 0.5(8) 1.0(2) 2.0(4) …; offset 1, count 3 → 8 2 4
		if want := []string{"8", "2", "4"}; !equalStrings(ids, want) {
			t.Fatalf("got %v, want %v", ids, want)
		}
	})
}

func TestLimitOffset(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		got := drain(t, &Limit{Input: people(n), Count: 3, Offset: 4})
		var ids []string
		for _, r := range got {
			ids = append(ids, r[:1])
		}
		if want := []string{"5", "6", "7"}; !equalStrings(ids, want) {
			t.Fatalf("got %v, want %v", ids, want)
		}
	})
}

func TestDistinct(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		p := &Project{Input: people(n), Exprs: []Expr{ColumnExpr(1, columnar.TVarchar)}}
		got := drain(t, &Distinct{Input: p})
		if want := []string{"ann", "bob", "cid", "dee", "eve"}; !equalStrings(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

func TestInWithNullList(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		// id IN (2, NULL): TRUE for 2, NULL (dropped) elsewhere; NOT IN is never TRUE.
		in := mustCall(t, "in", columnar.TBool, ColumnExpr(0, columnar.TInt64), ConstExpr(i64(2)), ConstExpr(null(columnar.TInt64)))
		if got := drain(t, &Filter{Input: people(n), Cond: in}); len(got) != 1 || got[0] != "2|bob|1.0" {
			t.Fatalf("IN: got %v", got)
		}
		notIn := mustCall(t, "not_in", columnar.TBool, ColumnExpr(0, columnar.TInt64), ConstExpr(i64(2)), ConstExpr(null(columnar.TInt64)))
		if got := drain(t, &Filter{Input: people(n), Cond: notIn}); len(got) != 0 {
			t.Fatalf("NOT IN with NULL: got %v, want nothing", got)
		}
	})
}

func TestOverflowIsAnError(t *testing.T) {
	src := &source{types: []columnar.Type{columnar.TInt32}, rows: [][]columnar.Value{{columnar.IntValue(columnar.TInt32, 2147483647)}}, n: 1}
	e := mustCall(t, "+", columnar.TInt32, ColumnExpr(0, columnar.TInt32), ConstExpr(columnar.IntValue(columnar.TInt32, 1)))
	p := &Project{Input: src, Exprs: []Expr{e}}
	if err := p.Open(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, err := p.Next(t.Context())
	if err == nil || err.Error() != "overflow in addition of INTEGER (2147483647 + 1)" {
		t.Fatalf("got %v", err)
	}
}

func TestLikePatterns(t *testing.T) {
	cases := []struct {
		pat, s string
		want   bool
	}{
		{"ab%", "abc", true}, {"ab%", "xab", false}, {"%bc", "abc", true}, {"%b%", "abc", true},
		{"a_c", "abc", true}, {"a_c", "abbc", false}, {"a%c%e", "abcde", true}, {"a%c%e", "abcdf", false},
		{"100\\%", "100%", true}, {"100\\%", "1000", false}, {"", "", true}, {"%", "", true}, {"_", "", false},
		{"é_", "éa", true},
	}
	for _, c := range cases {
		if got := compileLike([]byte(c.pat), false).match([]byte(c.s)); got != c.want {
			t.Errorf("%q LIKE %q = %v, want %v", c.s, c.pat, got, c.want)
		}
	}
	if !compileLike([]byte("AB%"), true).match([]byte("abc")) {
		t.Error("ILIKE should fold case")
	}
}

// TestHashAggIntKeysMoveIntoDenseTable: a key first stored in the map must
// keep its group when the direct table later grows over it.
func TestHashAggIntKeysMoveIntoDenseTable(t *testing.T) {
	var rows [][]columnar.Value
	rows = append(rows, []columnar.Value{i64(100_000)}, []columnar.Value{i64(-3)})
	for k := 0; k < 20_000; k++ { // 20k groups: 8×20k = 160k > 100k, the table grows over 100000
		rows = append(rows, []columnar.Value{i64(int64(k))})
	}
	rows = append(rows, []columnar.Value{i64(100_000)}, []columnar.Value{i64(-3)}, []columnar.Value{i64(7)})
	for _, n := range []int{7, columnar.MaxBatch} {
		src := &source{types: []columnar.Type{columnar.TInt64}, rows: rows, n: n}
		agg := &HashAgg{Input: src, Groups: []Expr{ColumnExpr(0, columnar.TInt64)}, Aggs: []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}}}
		got := drain(t, agg)
		if len(got) != 20_002 {
			t.Fatalf("batch %d: %d groups, want 20002", n, len(got))
		}
		want := map[string]bool{"100000|2": true, "-3|2": true, "7|2": true, "8|1": true}
		for _, r := range got {
			delete(want, r)
		}
		if len(want) != 0 {
			t.Fatalf("batch %d: missing groups %v", n, want)
		}
	}
}
