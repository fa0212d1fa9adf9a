package executor

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func TestWindow(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		// people: id, name, score; partition by name, order by id.
		name := ColumnExpr(1, columnar.TVarchar)
		id := ColumnExpr(0, columnar.TInt64)
		score := ColumnExpr(2, columnar.TFloat64)
		part := []Expr{name}
		ord := []SortKey{{Expr: id}}
		w := &Window{Input: people(n), Funcs: []WindowFunc{
			{Name: "row_number", Partition: part, Order: ord, Type: columnar.TInt64},
			{Name: "sum", Args: []Expr{score}, Partition: part, Order: ord, Type: columnar.TFloat64, Frame: WindowFrame{StartUnbounded: true}},
			{Name: "lag", Args: []Expr{id}, Partition: part, Order: ord, Type: columnar.TInt64, Offset: 1, Default: i64(0)},
			{Name: "rank", Order: []SortKey{{Expr: score, Desc: true}}, Type: columnar.TInt64},
		}}
		got := drain(t, w)
		// ann: ids 1,4,8 scores 3.5,2,0.5; bob: 2,6,9 scores 1,-1,2; cid 3 NULL; dee 5 3.5; eve 7 10.25.
		// rank by score desc (NULLS LAST): 10.25→1, 3.5→2,2, 2.0→4,4, 1.0→6, 0.5→7, -1→8, NULL→9
		want := []string{
			"1|ann|3.5|1|3.5|0|2",
			"2|bob|1.0|1|1.0|0|6",
			"3|cid|NULL|1|NULL|0|9",
			"4|ann|2.0|2|5.5|1|4",
			"5|dee|3.5|1|3.5|0|2",
			"6|bob|-1.0|2|0.0|2|8",
			"7|eve|10.25|1|10.25|0|1",
			"8|ann|0.5|3|6.0|4|7",
			"9|bob|2.0|3|2.0|6|4",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
}

func TestNtile(t *testing.T) {
	// 7 rows in 3 buckets: 3, 2, 2.
	want := []int64{1, 1, 1, 2, 2, 3, 3}
	for i, w := range want {
		if g := ntile(int64(i), 7, 3); g != w {
			t.Errorf("ntile(%d) = %d, want %d", i, g, w)
		}
	}
}

func TestWindowArgMinMax(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		id := ColumnExpr(0, columnar.TInt64)
		name := ColumnExpr(1, columnar.TVarchar)
		score := ColumnExpr(2, columnar.TFloat64)
		w := &Window{Input: people(n), Funcs: []WindowFunc{
			// the id of each name's best score; cid's only score is NULL
			{Name: "arg_max", Args: []Expr{id, score}, Partition: []Expr{name}, Type: columnar.TInt64,
				Frame: WindowFrame{StartUnbounded: true, EndUnbounded: true}},
			// the name of the lowest score among the row and its neighbours by id
			{Name: "arg_min", Args: []Expr{name, score}, Order: []SortKey{{Expr: id}}, Type: columnar.TVarchar,
				Frame: WindowFrame{Rows: true, Start: -1, End: 1}},
		}}
		got := drain(t, w)
		// scores by id: 3.5 1.0 NULL 2.0 3.5 -1 10.25 0.5 2.0
		want := []string{
			"1|ann|3.5|1|bob",
			"2|bob|1.0|9|bob",
			"3|cid|NULL|NULL|bob",
			"4|ann|2.0|1|ann",
			"5|dee|3.5|5|bob",
			"6|bob|-1.0|9|bob",
			"7|eve|10.25|7|bob",
			"8|ann|0.5|1|ann",
			"9|bob|2.0|9|ann",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
}

func TestWindowGroupsExclude(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		id := ColumnExpr(0, columnar.TInt64)
		name := ColumnExpr(1, columnar.TVarchar)
		byName := []SortKey{{Expr: name}}
		w := &Window{Input: people(n), Funcs: []WindowFunc{
			{Name: "sum", Args: []Expr{id}, Order: byName, Type: columnar.TInt64,
				Frame: WindowFrame{Groups: true, Start: -1, End: 1}},
			{Name: "sum", Args: []Expr{id}, Order: byName, Type: columnar.TInt64,
				Frame: WindowFrame{StartUnbounded: true, EndUnbounded: true, Exclude: ExcludeTies}},
			{Name: "count_star", Order: byName, Type: columnar.TInt64,
				Frame: WindowFrame{Groups: true, Start: 2, End: 3}},
			{Name: "last_value", Args: []Expr{id}, Order: []SortKey{{Expr: id}}, Type: columnar.TInt64,
				Frame: WindowFrame{Rows: true, StartUnbounded: true, Exclude: ExcludeCurrentRow}},
		}}
		got := drain(t, w)
		// peer groups by name: ann {1,4,8} = 13, bob {2,6,9} = 17, cid 3, dee 5, eve 7 (total 45).
		// groups ±1: ann 13+17, bob 13+17+3, cid 17+3+5, dee 3+5+7, eve 5+7;
		// EXCLUDE TIES: 45 - group + own id; groups +2..+3: ann cid+dee, bob dee+eve, cid eve;
		// last_value excluding the current row: the previous id.
		want := []string{
			"1|ann|3.5|30|33|2|NULL",
			"2|bob|1.0|33|30|2|1",
			"3|cid|NULL|25|45|1|2",
			"4|ann|2.0|30|36|2|3",
			"5|dee|3.5|15|45|0|4",
			"6|bob|-1.0|33|34|2|5",
			"7|eve|10.25|12|45|0|6",
			"8|ann|0.5|30|40|2|7",
			"9|bob|2.0|33|37|2|8",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
}

func TestWindowIgnoreNulls(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		id := ColumnExpr(0, columnar.TInt64)
		score := ColumnExpr(2, columnar.TFloat64)
		ord := []SortKey{{Expr: id}}
		null := columnar.NullValue(columnar.TFloat64)
		w := &Window{Input: people(n), Funcs: []WindowFunc{
			{Name: "lag", Args: []Expr{score}, Order: ord, Type: columnar.TFloat64, Offset: 1, Default: null, IgnoreNulls: true},
			{Name: "lead", Args: []Expr{score}, Order: ord, Type: columnar.TFloat64, Offset: 1, Default: null, IgnoreNulls: true},
			{Name: "last_value", Args: []Expr{score}, Order: ord, Type: columnar.TFloat64, IgnoreNulls: true,
				Frame: WindowFrame{Rows: true, Start: -1, End: 0}},
		}}
		got := drain(t, w)
		// scores by id: 3.5 1.0 NULL 2.0 3.5 -1 10.25 0.5 2.0; id 3's NULL is passed over
		want := []string{
			"1|ann|3.5|NULL|1.0|3.5",
			"2|bob|1.0|3.5|2.0|1.0",
			"3|cid|NULL|1.0|2.0|1.0",
			"4|ann|2.0|1.0|3.5|2.0",
			"5|dee|3.5|2.0|-1.0|3.5",
			"6|bob|-1.0|3.5|10.25|-1.0",
			"7|eve|10.25|-1.0|0.5|10.25",
			"8|ann|0.5|10.25|2.0|0.5",
			"9|bob|2.0|0.5|NULL|2.0",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
}

func TestWindowFrameString(t *testing.T) {
	for _, tc := range []struct {
		fr   WindowFrame
		want string
	}{
		{WindowFrame{StartUnbounded: true}, ""},
		{WindowFrame{StartUnbounded: true, EndUnbounded: true}, ""},
		{WindowFrame{Rows: true, Start: -3, End: 0}, "ROWS BETWEEN 3 PRECEDING AND CURRENT ROW"},
		{WindowFrame{Groups: true, Start: 1, EndUnbounded: true, Exclude: ExcludeGroup}, "GROUPS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING EXCLUDE GROUP"},
		{WindowFrame{StartRange: true, StartDist: -0.5, EndRange: true, EndDist: 2}, "RANGE BETWEEN 0.5 PRECEDING AND 2 FOLLOWING"},
		{WindowFrame{StartUnbounded: true, EndUnbounded: true, Exclude: ExcludeCurrentRow}, "RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW"},
	} {
		if got := tc.fr.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.fr, got, tc.want)
		}
	}
}

// Functions over one window share its sort (SharesOrder) and still give
// each its own values.
func TestWindowSharesOrder(t *testing.T) {
	runSizes(t, func(t *testing.T, n int) {
		name := ColumnExpr(1, columnar.TVarchar)
		id := ColumnExpr(0, columnar.TInt64)
		score := ColumnExpr(2, columnar.TFloat64)
		part, ord := []Expr{name}, []SortKey{{Expr: id}}
		w := &Window{Input: people(n), Funcs: []WindowFunc{
			{Name: "row_number", Partition: part, Order: ord, Type: columnar.TInt64},
			{Name: "sum", Args: []Expr{score}, Partition: part, Order: ord, Type: columnar.TFloat64, Frame: WindowFrame{StartUnbounded: true}, SharesOrder: 1},
			{Name: "lag", Args: []Expr{id}, Partition: part, Order: ord, Type: columnar.TInt64, Offset: 1, Default: i64(0), SharesOrder: 1},
		}}
		got := drain(t, w)
		// as TestWindow: ann 1,4,8; bob 2,6,9; cid 3; dee 5; eve 7
		want := []string{
			"1|ann|3.5|1|3.5|0", "2|bob|1.0|1|1.0|0", "3|cid|NULL|1|NULL|0", "4|ann|2.0|2|5.5|1", "5|dee|3.5|1|3.5|0",
			"6|bob|-1.0|2|0.0|2", "7|eve|10.25|1|10.25|0", "8|ann|0.5|3|6.0|4", "9|bob|2.0|3|2.0|6",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
	})
}
