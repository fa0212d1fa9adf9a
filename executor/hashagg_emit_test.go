package executor

import (
	"fmt"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestHashAggKeysFromWords: composite keys (BOOLEAN, VARCHAR, BIGINT) are
// rebuilt from their key words (hashtab's composite Keys) across output batches,
// NULLs per column included. Rows i = 0..2999 key on a = i%1500, so each of
// the 1500 groups has 2 rows and sum(i) = a + (a+1500).
func TestHashAggKeysFromWords(t *testing.T) {
	types := []columnar.Type{columnar.TBool, columnar.TVarchar, columnar.TInt64, columnar.TInt64}
	var rows [][]columnar.Value
	for i := 0; i < 3000; i++ {
		a := int64(i % 1500)
		rows = append(rows, []columnar.Value{columnar.BoolValue(a%2 == 0), str(fmt.Sprintf("v%d", a/3)), i64(a), i64(int64(i))})
	}
	rows = append(rows,
		[]columnar.Value{null(columnar.TBool), str("v0"), i64(0), i64(5)},
		[]columnar.Value{columnar.BoolValue(true), null(columnar.TVarchar), i64(0), i64(6)},
		[]columnar.Value{columnar.BoolValue(true), str("v0"), null(columnar.TInt64), i64(7)},
		[]columnar.Value{columnar.BoolValue(true), null(columnar.TVarchar), i64(0), i64(8)})
	var want []string
	for a := 0; a < 1500; a++ {
		want = append(want, fmt.Sprintf("%v|v%d|%d|2|%d", a%2 == 0, a/3, a, 2*a+1500))
	}
	want = append(want, "NULL|v0|0|1|5", "true|NULL|0|2|14", "true|v0|NULL|1|7")
	slices.Sort(want)
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input:  &source{types: types, rows: rows, n: n},
			Groups: []Expr{ColumnExpr(0, columnar.TBool), ColumnExpr(1, columnar.TVarchar), ColumnExpr(2, columnar.TInt64)},
			Aggs: []AggSpec{
				{Kind: AggCountStar, Type: columnar.TInt64},
				{Kind: AggSum, Arg: ColumnExpr(3, columnar.TInt64), Type: columnar.TInt64},
			},
		}
		got, kind := drainAgg(t, agg)
		if kind != "composite" && kind != "composite+packed" {
			t.Fatalf("grouped by %s, want the composite table (words or packed)", kind)
		}
		slices.Sort(got)
		if !equalStrings(got, want) {
			t.Fatalf("got %d rows %v…\nwant %d rows %v…", len(got), got[:min(5, len(got))], len(want), want[:5])
		}
	})
}

// TestIntSumSpillThenNewGroups: an int sum into DOUBLE keeps no float part
// until a group overflows (aggState.spill); groups created after that get
// one too. Group 1 adds 2^62 three times (spilling), then -2^62 and 4:
// 2^63 + 4, rounded once to a double; groups 2..2001 sum to their key.
func TestIntSumSpillThenNewGroups(t *testing.T) {
	big := int64(1) << 62
	rows := [][]columnar.Value{{i64(1), i64(big)}, {i64(1), i64(big)}, {i64(1), i64(big)}}
	var want []string
	for k := int64(2); k <= 2001; k++ {
		rows = append(rows, []columnar.Value{i64(k), i64(k)})
		want = append(want, fmt.Sprintf("%d|%s", k, columnar.FloatValue(columnar.TFloat64, float64(k))))
	}
	rows = append(rows, []columnar.Value{i64(1), i64(-big)}, []columnar.Value{i64(1), i64(4)})
	want = append(want, "1|"+columnar.FloatValue(columnar.TFloat64, float64(1<<63)+4).String())
	slices.Sort(want)
	types := []columnar.Type{columnar.TInt64, columnar.TInt64}
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input:  &source{types: types, rows: rows, n: n},
			Groups: []Expr{ColumnExpr(0, columnar.TInt64)},
			Aggs:   []AggSpec{{Kind: AggSum, Arg: ColumnExpr(1, columnar.TInt64), Type: columnar.TFloat64}},
		}
		got := drainOpen(t, agg)
		slices.Sort(got)
		if !equalStrings(got, want) {
			t.Fatalf("got %v…, want %v…", got[:3], want[:3])
		}
	})
}

// TestHashAggPackedKeysWiden: (VARCHAR, BIGINT) keys start packed in one
// word (hashtab's packedKeys) sized from the first batch, and are repacked
// when the 128th string or the integer 200 arrives; groups made before
// and after agree. Rows
// i = 0..599: s = "s" + i%150, k = i%3 (k = 200 for i >= 500, NULL s for
// i%97 = 0).
func TestHashAggPackedKeysWiden(t *testing.T) {
	types := []columnar.Type{columnar.TVarchar, columnar.TInt64}
	var rows [][]columnar.Value
	count := map[string]int{}
	for i := 0; i < 600; i++ {
		s, k := str(fmt.Sprintf("s%d", i%150)), int64(i%3)
		if i >= 500 {
			k = 200
		}
		if i%97 == 0 {
			s = null(columnar.TVarchar)
		}
		rows = append(rows, []columnar.Value{s, i64(k)})
		count[fmt.Sprintf("%s|%d", s, k)]++
	}
	var want []string
	for key, n := range count {
		want = append(want, fmt.Sprintf("%s|%d", key, n))
	}
	slices.Sort(want)
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input:  &source{types: types, rows: rows, n: n},
			Groups: []Expr{ColumnExpr(0, columnar.TVarchar), ColumnExpr(1, columnar.TInt64)},
			Aggs:   []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}},
		}
		got, kind := drainAgg(t, agg)
		if kind != "composite+packed" {
			t.Fatalf("grouped by %s: the keys should still be packed", kind)
		}
		slices.Sort(got)
		if !equalStrings(got, want) {
			t.Fatalf("got %d groups %v…, want %d %v…", len(got), got[:3], len(want), want[:3])
		}
	})
	// Two BIGINTs of 40 bits each do not fit one word: the word table.
	wide := []columnar.Type{columnar.TInt64, columnar.TInt64}
	var big [][]columnar.Value
	for i := range 300 {
		big = append(big, []columnar.Value{i64(int64(i%7) << 40), i64(int64(i%5) << 40)})
	}
	agg := &HashAgg{
		Input:  &source{types: wide, rows: big, n: 7},
		Groups: []Expr{ColumnExpr(0, columnar.TInt64), ColumnExpr(1, columnar.TInt64)},
		Aggs:   []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}},
	}
	if got, kind := drainAgg(t, agg); len(got) != 35 || kind != "composite" {
		t.Fatalf("got %d groups by %s, want 35 by the word table", len(got), kind)
	}
}

// TestCompositeRepeatedSlices: a string key repeated as the same slice
// (a join's build row over its matches) is interned once; a shorter slice
// at the same address, and equal bytes elsewhere, still group by value.
func TestCompositeRepeatedSlices(t *testing.T) {
	buf := []byte("MEDIUM BURNISHED TIN")
	other := []byte("MEDIUM BURNISHED TIN")
	vals := [][]byte{buf, buf, buf, buf[:6], other, buf[:6], []byte("x")}
	types := []columnar.Type{columnar.TVarchar, columnar.TInt64}
	b := columnar.NewBatch(types, len(vals))
	b.Len = len(vals)
	for i, v := range vals {
		b.Cols[0].Bytes[i] = v
		b.Cols[1].Ints[i] = 1
	}
	agg := &HashAgg{
		Input:  &batchList{types: types, batches: []*columnar.Batch{b}},
		Groups: []Expr{ColumnExpr(0, columnar.TVarchar), ColumnExpr(1, columnar.TInt64)},
		Aggs:   []AggSpec{{Kind: AggCountStar, Type: columnar.TInt64}},
	}
	got := drainOpen(t, agg)
	slices.Sort(got)
	if want := []string{"MEDIUM BURNISHED TIN|1|4", "MEDIUM|1|2", "x|1|1"}; !equalStrings(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestHashAggDensePages: integer keys beyond one 64Ki page of the direct
// table (hashtab's denseTable; TestIntMapDensePages checks it covers them), some first seen while out of its range (so kept in
// the hash table, then copied in when the pages grow over them), plus
// negative, huge and NULL keys. Rows: 150000, 70000, 5<<40, -7, then
// k = 0..99999, then 70000, 150000, NULL, -7; v = 1 for every row.
func TestHashAggDensePages(t *testing.T) {
	types := []columnar.Type{columnar.TInt64, columnar.TInt64}
	var rows [][]columnar.Value
	add := func(k columnar.Value) { rows = append(rows, []columnar.Value{k, i64(1)}) }
	for _, k := range []int64{150000, 70000, 5 << 40, -7} {
		add(i64(k))
	}
	for k := int64(0); k < 100000; k++ {
		add(i64(k))
	}
	add(i64(70000))
	add(i64(150000))
	add(null(columnar.TInt64))
	add(i64(-7))
	runSizes(t, func(t *testing.T, n int) {
		agg := &HashAgg{
			Input:  &source{types: types, rows: rows, n: n},
			Groups: []Expr{ColumnExpr(0, columnar.TInt64)},
			Aggs:   []AggSpec{{Kind: AggSum, Arg: ColumnExpr(1, columnar.TInt64), Type: columnar.TInt64}},
		}
		got := map[string]bool{}
		for _, r := range drainOpen(t, agg) {
			got[r] = true
		}
		// 100000 keys 0..99999 (70000 three times), 150000 twice,
		// 5<<40 once, -7 twice, NULL once.
		if len(got) != 100004 {
			t.Fatalf("got %d groups, want 100004", len(got))
		}
		for _, want := range []string{"0|1", "65535|1", "65536|1", "70000|3", "99999|1", "150000|2", fmt.Sprintf("%d|1", int64(5<<40)), "-7|2", "NULL|1"} {
			if !got[want] {
				t.Fatalf("missing %s", want)
			}
		}
	})
}
