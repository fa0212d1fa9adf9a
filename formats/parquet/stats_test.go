package parquet

import (
	"math"
	"path/filepath"
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
	for _, tc := range []struct {
		name    string
		filter  []index.Pred
		read    int64 // row groups read
		allTrue int64
	}{
		{"between", []index.Pred{pred(id, index.Between, i64(150), i64(250))}, 2, 0},
		{"ge0", []index.Pred{pred(id, index.Ge, i64(0))}, 10, 10},
		{"eq-missing", []index.Pred{pred(id, index.Eq, i64(5000))}, 0, 0},
		{"lt", []index.Pred{pred(id, index.Lt, i64(100))}, 1, 1},
		{"in", []index.Pred{pred(id, index.In, i64(5), i64(505))}, 2, 0},
		{"or", []index.Pred{{Op: index.Or, Any: []index.Pred{pred(id, index.Lt, i64(100)), pred(id, index.Gt, i64(899))}}}, 2, 2},
		{"and", []index.Pred{pred(id, index.Ge, i64(300)), pred(id, index.Lt, i64(500))}, 2, 2},
		{"float-lt", []index.Pred{pred(col("f64"), index.Lt, f64(10))}, 1, 0},
		// NaN may hide in any row group (statistics ignore it): no skipping.
		{"float-gt", []index.Pred{pred(col("f64"), index.Gt, f64(1000))}, 10, 0},
		{"string-eq", []index.Pred{pred(col("s"), index.Eq, columnar.StringValue("zzz"))}, 0, 0},
		{"is-null", []index.Pred{pred(col("s"), index.IsNull)}, 10, 0},
		{"is-null-required", []index.Pred{pred(id, index.IsNull)}, 0, 0},
		{"is-not-null-required", []index.Pred{pred(id, index.IsNotNull)}, 10, 10},
		{"timestamp-ms", []index.Pred{pred(col("tsms"), index.Between, ts(150), ts(250))}, 2, 0},
		{"uint64-high-bit", []index.Pred{pred(col("u64"), index.Gt, columnar.UintValue(1<<63+949))}, 1, 0},
		{"uint32", []index.Pred{pred(col("u32"), index.Lt, u32(math.MaxUint32-899))}, 1, 0},
		{"decimal", []index.Pred{pred(col("dec"), index.Lt, columnar.IntValue(columnar.DecimalType(10, 2), 100*123-5000))}, 1, 0},
		{"no-stats", []index.Pred{pred(col("bin"), index.Eq, columnar.Value{Type: columnar.TBlob, S: "x"})}, 10, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, noPrune := range []bool{false, true} {
				var st index.ScanStats
				spec := index.ScanSpec{Cols: []int{id}, Filter: tc.filter, Limit: -1, Threads: 3, NoPrune: noPrune, Stats: &st}
				rows := readAll(t, tb, spec)
				read, allTrue := tc.read, tc.allTrue
				if noPrune {
					read, allTrue = 10, 0
				}
				if st.UnitName != "row groups" || st.UnitsTotal != 10 || st.UnitsSkipped != 10-read ||
					st.UnitsAllTrue != allTrue || st.RowsRead != read*100 || int64(len(rows)) != read*100 ||
					(read > 0) != (st.BytesRead > 0) {
					t.Errorf("noPrune=%v: stats %+v rows %d, want %d read, %d all-true", noPrune, st, len(rows), read, allTrue)
				}
			}
		})
	}

	if got := tb.SupportsFilter(pred(id, index.Eq, i64(1))); got != index.Inexact {
		t.Errorf("SupportsFilter(id) = %v", got)
	}
	if got := tb.SupportsFilter(pred(col("bin"), index.Eq, columnar.Value{Type: columnar.TBlob})); got != index.Unsupported {
		t.Errorf("SupportsFilter(bin without stats) = %v", got)
	}
	or := index.Pred{Op: index.Or, Any: []index.Pred{pred(id, index.Eq, i64(1)), pred(col("bin"), index.IsNull)}}
	if got := tb.SupportsFilter(or); got != index.Unsupported {
		t.Errorf("SupportsFilter(or with bin) = %v", got)
	}
	spec := index.ScanSpec{Filter: []index.Pred{pred(id, index.Between, i64(150), i64(250))}, Limit: -1}
	if got, want := tb.DescribeScan(spec), "row groups=2/10 (stats)"; got != want {
		t.Errorf("DescribeScan = %q, want %q", got, want)
	}
}
