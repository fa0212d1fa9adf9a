package parquet

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

func TestPruning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sorted.parquet")
	cols := allCols()
	// 10 row groups of 100 sorted ids; no statistics for "bin".
	writeArrow(t, path, cols, 0, 1000, 100, false, parquet.WithStatsFor("bin", false))
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	col := func(name string) int { return tb.Schema().Index(name) }
	id := col("id")
	i64 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt64, v) }
	f64 := func(v float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, v) }
	ts := func(row int64) columnar.Value {
		return columnar.IntValue(columnar.TTimestamp, (1_700_000_000_000+row*1001)*1000)
	}
	u32 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TUint32, v) }
	pred := func(c int, op index.Op, vals ...columnar.Value) index.Pred {
		return index.Pred{Col: c, Op: op, Vals: vals}
	}
	all := func(int) bool { return true }
	none := func(int) bool { return false }
	for _, tc := range []struct {
		name    string
		filter  []index.Pred
		read    int64 // row groups read
		allTrue int64
		match   func(i int) bool // rows the filter keeps, by hand
	}{
		{"between", []index.Pred{pred(id, index.Between, i64(150), i64(250))}, 2, 0, func(i int) bool { return i >= 150 && i <= 250 }},
		{"ge0", []index.Pred{pred(id, index.Ge, i64(0))}, 10, 10, all},
		{"eq-missing", []index.Pred{pred(id, index.Eq, i64(5000))}, 0, 0, none},
		{"lt", []index.Pred{pred(id, index.Lt, i64(100))}, 1, 1, func(i int) bool { return i < 100 }},
		{"in", []index.Pred{pred(id, index.In, i64(5), i64(505))}, 2, 0, func(i int) bool { return i == 5 || i == 505 }},
		{"or", []index.Pred{{Op: index.Or, Any: []index.Pred{pred(id, index.Lt, i64(100)), pred(id, index.Gt, i64(899))}}}, 2, 2,
			func(i int) bool { return i < 100 || i > 899 }},
		{"and", []index.Pred{pred(id, index.Ge, i64(300)), pred(id, index.Lt, i64(500))}, 2, 2, func(i int) bool { return i >= 300 && i < 500 }},
		{"float-lt", []index.Pred{pred(col("f64"), index.Lt, f64(10))}, 1, 0, func(i int) bool { return !isNull(i) && i < 30 }},
		// NaN may hide in any row group (statistics ignore it): no skipping.
		{"float-gt", []index.Pred{pred(col("f64"), index.Gt, f64(1000))}, 10, 0, none},
		{"string-eq", []index.Pred{pred(col("s"), index.Eq, columnar.StringValue("zzz"))}, 0, 0, none},
		{"is-null", []index.Pred{pred(col("s"), index.IsNull)}, 10, 0, isNull},
		{"is-null-required", []index.Pred{pred(id, index.IsNull)}, 0, 0, none},
		{"is-not-null-required", []index.Pred{pred(id, index.IsNotNull)}, 10, 10, all},
		{"timestamp-ms", []index.Pred{pred(col("tsms"), index.Between, ts(150), ts(250))}, 2, 0, func(i int) bool { return i >= 150 && i <= 250 }},
		{"uint64-high-bit", []index.Pred{pred(col("u64"), index.Gt, columnar.UintValue(1<<63+949))}, 1, 0, func(i int) bool { return i > 949 }},
		{"uint32", []index.Pred{pred(col("u32"), index.Lt, u32(math.MaxUint32-899))}, 1, 0, func(i int) bool { return !isNull(i) && i > 899 }},
		{"decimal", []index.Pred{pred(col("dec"), index.Lt, columnar.IntValue(columnar.DecimalType(10, 2), 100*123-5000))}, 1, 0,
			func(i int) bool { return !isNull(i) && i < 100 }},
		{"no-stats", []index.Pred{pred(col("bin"), index.Eq, columnar.Value{Type: columnar.TBlob, S: "x"})}, 10, 0, none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []int64
			for i := range 1000 {
				if tc.match(i) {
					want = append(want, int64(i))
				}
			}
			for _, noPrune := range []bool{false, true} {
				var st index.ScanStats
				spec := index.ScanSpec{Cols: []int{id}, Filter: tc.filter, Limit: -1, Threads: 3, NoPrune: noPrune, Stats: &st}
				rows := readAll(t, tb, spec)
				read, allTrue := tc.read, tc.allTrue
				if noPrune {
					read, allTrue = 10, 0
				}
				if st.UnitName != "row groups" || st.UnitsTotal != 10 || st.UnitsSkipped != 10-read ||
					st.UnitsAllTrue != allTrue || st.RowsRead != int64(len(want)) ||
					(read > 0) != (st.BytesRead > 0) {
					t.Errorf("noPrune=%v: stats %+v, want %d read, %d all-true, %d rows", noPrune, st, read, allTrue, len(want))
				}
				got := make([]int64, len(rows))
				for k, r := range rows {
					got[k] = r[0].I
				}
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("noPrune=%v: ids %v, want %v", noPrune, got, want)
				}
			}
		})
	}

	// The scan filters rows itself, with or without statistics.
	if got := tb.SupportsFilter(pred(id, index.Eq, i64(1))); got != index.Exact {
		t.Errorf("SupportsFilter(id) = %v", got)
	}
	if got := tb.SupportsFilter(pred(col("bin"), index.Eq, columnar.Value{Type: columnar.TBlob})); got != index.Exact {
		t.Errorf("SupportsFilter(bin without stats) = %v", got)
	}
	or := index.Pred{Op: index.Or, Any: []index.Pred{pred(id, index.Eq, i64(1)), pred(col("bin"), index.IsNull)}}
	if got := tb.SupportsFilter(or); got != index.Exact {
		t.Errorf("SupportsFilter(or with bin) = %v", got)
	}
	if got := tb.SupportsFilter(pred(id, index.Eq, columnar.StringValue("1"))); got != index.Unsupported {
		t.Errorf("SupportsFilter(id = string) = %v", got)
	}
	spec := index.ScanSpec{Filter: []index.Pred{pred(id, index.Between, i64(150), i64(250))}, Limit: -1}
	if got, want := tb.DescribeScan(spec), "row groups=2/10 (stats)"; got != want {
		t.Errorf("DescribeScan = %q, want %q", got, want)
	}
}
