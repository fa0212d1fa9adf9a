package parquet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// The page-index file: 20,000 rows in 4 row groups of 5,000, pages of a few
// hundred rows, columns shaped for each rule. Every value is a formula of
// the row number, so expected answers never come from the code under test.
const (
	piRows     = 20_000
	piRowGroup = 5_000
)

func piRnd(i int) int64 { return int64(i) * 2654435761 % 100_003 }

// piNulHeavy: rows 5000..7999 are NULL (whole NULL-only pages), and
// isNull(i) as every nullable test column.
func piNul(i int) (int64, bool) {
	if isNull(i) || (i >= 5000 && i < 8000) {
		return 0, false
	}
	return int64(i % 1000), true
}

// piFl: i/10, NaN on rows 12000..12299 (NaN-only pages) and every 1000th.
func piFl(i int) float64 {
	if (i >= 12000 && i < 12300) || i%1000 == 999 {
		return math.NaN()
	}
	return float64(i) / 10
}

func piCols() []tcol {
	return []tcol{
		{name: "id", typ: arrow.PrimitiveTypes.Int64, want: columnar.TInt64,
			app: func(b array.Builder, i int) { b.(*array.Int64Builder).Append(int64(i)) },
			val: func(i int) columnar.Value { return columnar.IntValue(columnar.TInt64, int64(i)) }},
		{name: "clu", typ: arrow.PrimitiveTypes.Int32, want: columnar.TInt32,
			app: func(b array.Builder, i int) { b.(*array.Int32Builder).Append(int32(i/100 + i*7919%5)) },
			val: func(i int) columnar.Value { return columnar.IntValue(columnar.TInt32, int64(i/100+i*7919%5)) }},
		{name: "rnd", typ: arrow.PrimitiveTypes.Int64, want: columnar.TInt64,
			app: func(b array.Builder, i int) { b.(*array.Int64Builder).Append(piRnd(i)) },
			val: func(i int) columnar.Value { return columnar.IntValue(columnar.TInt64, piRnd(i)) }},
		{name: "nul", typ: arrow.PrimitiveTypes.Int32, nullable: true, want: columnar.TInt32,
			app: func(b array.Builder, i int) {
				if v, ok := piNul(i); ok {
					b.(*array.Int32Builder).Append(int32(v))
				} else {
					b.AppendNull()
				}
			},
			val: func(i int) columnar.Value {
				if v, ok := piNul(i); ok {
					return columnar.IntValue(columnar.TInt32, v)
				}
				return columnar.NullValue(columnar.TInt32)
			}},
		{name: "fl", typ: arrow.PrimitiveTypes.Float64, want: columnar.TFloat64,
			app: func(b array.Builder, i int) { b.(*array.Float64Builder).Append(piFl(i)) },
			val: func(i int) columnar.Value { return columnar.FloatValue(columnar.TFloat64, piFl(i)) }},
		{name: "str", typ: arrow.BinaryTypes.String, nullable: true, want: columnar.TVarchar,
			app: func(b array.Builder, i int) { b.(*array.StringBuilder).Append(fmt.Sprintf("k%06d", i)) },
			val: func(i int) columnar.Value { return columnar.StringValue(fmt.Sprintf("k%06d", i)) }},
	}
}

// piValue is the expected value of column c at row i (NULLs included).
func piValue(c tcol, i int) columnar.Value {
	if c.nullable && isNull(i) {
		return columnar.NullValue(c.want)
	}
	return c.val(i)
}

func openPageIndexed(t testing.TB, extra ...parquet.WriterProperty) *Table {
	t.Helper()
	path := filepath.Join(t.TempDir(), "paged.parquet")
	props := append([]parquet.WriterProperty{
		parquet.WithPageIndexEnabled(true),
		parquet.WithDataPageSize(1024),
		parquet.WithBatchSize(64),
		parquet.WithDictionaryDefault(false),
	}, extra...)
	writeArrow(t, path, piCols(), 0, piRows, piRowGroup, false, props...)
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// scanMode is one combination of rule switches.
type scanMode struct {
	name    string
	off     []index.ScanRule
	noPrune bool
}

var scanModes = []scanMode{
	{name: "all-on"},
	{name: "no-page-index", off: []index.ScanRule{index.PageIndex}},
	{name: "no-late", off: []index.ScanRule{index.LateMaterialization}},
	{name: "no-bloom-no-stats", off: []index.ScanRule{index.BloomFilter, index.BlockPruning}},
	{name: "plain", off: []index.ScanRule{index.PageIndex, index.LateMaterialization, index.BlockPruning, index.BloomFilter}},
	{name: "no-prune", noPrune: true},
}

func (m scanMode) spec(cols []int, filter []index.Pred, threads int, st *index.ScanStats) index.ScanSpec {
	spec := index.ScanSpec{Cols: cols, Filter: filter, Limit: -1, Threads: threads, NoPrune: m.noPrune, Stats: st}
	for _, r := range m.off {
		spec.Off = spec.Off.With(r)
	}
	return spec
}

// TestPageIndexFilters runs every filter under every rule combination,
// with the integer columns written PLAIN and DELTA_BINARY_PACKED (decoded
// by codeReader: seeks and skips through delta pages).
func TestPageIndexFilters(t *testing.T) {
	t.Run("plain", func(t *testing.T) { testPageIndexFilters(t, openPageIndexed(t)) })
	t.Run("delta", func(t *testing.T) {
		tb := openPageIndexed(t, deltaProps("clu", "rnd", "nul")...)
		c := &tb.cols[tb.Schema().Index("rnd")]
		if pi := tb.pageIndexOf(1, c); pi.pages() < 4 {
			t.Fatalf("rnd chunk has %d pages: the test needs several", pi.pages())
		}
		if cc, err := tb.files[0].meta.RowGroup(1).ColumnChunk(c.leaf); err != nil || !hasDeltaPages(cc) {
			t.Fatalf("rnd is not DELTA_BINARY_PACKED (%v)", err)
		}
		testPageIndexFilters(t, tb)
	})
}

func testPageIndexFilters(t *testing.T, tb *Table) {
	cols := piCols()
	col := func(name string) int { return tb.Schema().Index(name) }
	i64 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt64, v) }
	i32 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt32, v) }
	f64 := func(v float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, v) }
	str := columnar.StringValue
	pred := func(c string, op index.Op, vals ...columnar.Value) index.Pred {
		return index.Pred{Col: col(c), Op: op, Vals: vals}
	}
	// A page boundary of the id column in the second row group.
	pi := tb.pageIndexOf(1, &tb.cols[col("id")])
	if pi.pages() < 4 || pi.stats == nil {
		t.Fatalf("id chunk has %d pages, stats %v: the test needs a page index", pi.pages(), pi.stats != nil)
	}
	edge := int(piRowGroup + pi.first[2])
	// A value rnd never takes, inside its min/max.
	absent := int64(-1)
	seen := map[int64]bool{}
	for i := range piRows {
		seen[piRnd(i)] = true
	}
	for v := int64(50_000); absent < 0; v++ {
		if !seen[v] {
			absent = v
		}
	}
	isNaN := func(i int) bool { return math.IsNaN(piFl(i)) }
	for _, tc := range []struct {
		name   string
		filter []index.Pred
		match  func(i int) bool
		// pruned: with every rule on, the page index must skip pages
		pruned bool
	}{
		{"id-eq", []index.Pred{pred("id", index.Eq, i64(12345))}, func(i int) bool { return i == 12345 }, true},
		{"id-between", []index.Pred{pred("id", index.Between, i64(1000), i64(1100))}, func(i int) bool { return i >= 1000 && i <= 1100 }, true},
		{"page-edge", []index.Pred{pred("id", index.Between, i64(int64(edge-1)), i64(int64(edge)))}, func(i int) bool { return i == edge-1 || i == edge }, true},
		{"id-in", []index.Pred{pred("id", index.In, i64(5), i64(7000), i64(19999))}, func(i int) bool { return i == 5 || i == 7000 || i == 19999 }, true},
		{"id-missing", []index.Pred{pred("id", index.Eq, i64(-5))}, func(int) bool { return false }, false},
		{"clustered", []index.Pred{pred("clu", index.Gt, i32(150)), pred("clu", index.Lt, i32(152))},
			func(i int) bool { v := i/100 + i*7919%5; return v > 150 && v < 152 }, true},
		{"random", []index.Pred{pred("rnd", index.Eq, i64(piRnd(777)))}, func(i int) bool { return piRnd(i) == piRnd(777) }, false},
		{"random-absent", []index.Pred{pred("rnd", index.Eq, i64(absent))}, func(int) bool { return false }, false},
		{"null-heavy-is-null", []index.Pred{pred("nul", index.IsNull)}, func(i int) bool { _, ok := piNul(i); return !ok }, false},
		{"null-heavy-lt", []index.Pred{pred("nul", index.Lt, i32(5))}, func(i int) bool { v, ok := piNul(i); return ok && v < 5 }, true},
		{"null-heavy-not-null", []index.Pred{pred("nul", index.IsNotNull), pred("id", index.Between, i64(4990), i64(8010))},
			func(i int) bool { _, ok := piNul(i); return ok && i >= 4990 && i <= 8010 }, true},
		// NaN is above every number: NaN rows satisfy "> 1990".
		{"nan-gt", []index.Pred{pred("fl", index.Gt, f64(1990))}, func(i int) bool { return isNaN(i) || piFl(i) > 1990 }, false},
		{"nan-lt", []index.Pred{pred("fl", index.Lt, f64(5))}, func(i int) bool { return !isNaN(i) && piFl(i) < 5 }, true},
		{"nan-ne", []index.Pred{pred("fl", index.Ne, f64(3))}, func(i int) bool { return isNaN(i) || piFl(i) != 3 }, false},
		{"str-eq", []index.Pred{pred("str", index.Eq, str("k012345"))}, func(i int) bool { return i == 12345 && !isNull(i) }, true},
		{"str-ge", []index.Pred{pred("str", index.Ge, str("k019990"))}, func(i int) bool { return i >= 19990 && !isNull(i) }, true},
		{"or", []index.Pred{{Op: index.Or, Any: []index.Pred{pred("id", index.Lt, i64(10)), pred("str", index.Gt, str("k019990"))}}},
			func(i int) bool { return i < 10 || (i > 19990 && !isNull(i)) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []int
			for i := range piRows {
				if tc.match(i) {
					want = append(want, i)
				}
			}
			for _, m := range scanModes {
				for _, br := range []int64{7, 2048} {
					for _, threads := range []int{1, 3} {
						old := batchRows
						batchRows = br
						var st index.ScanStats
						rows := readAll(t, tb, m.spec(allColumns(len(cols)), tc.filter, threads, &st))
						batchRows = old
						where := fmt.Sprintf("%s batch=%d threads=%d", m.name, br, threads)
						checkRowNums(t, where, cols, rows, want)
						if m.name == "all-on" && tc.pruned && st.PagesSkipped == 0 {
							t.Errorf("%s: no page skipped: %+v", where, st)
						}
						if st.PagesSkipped > st.PagesTotal {
							t.Errorf("%s: pages %d/%d", where, st.PagesSkipped, st.PagesTotal)
						}
					}
				}
			}
		})
	}
}

// checkRowNums compares scanned rows (any order; column 0 is the row number)
// with the expected row numbers, every column against its formula.
func checkRowNums(t *testing.T, where string, cols []tcol, rows [][]columnar.Value, want []int) {
	t.Helper()
	if len(rows) != len(want) {
		t.Errorf("%s: %d rows, want %d", where, len(rows), len(want))
		return
	}
	slices.SortFunc(rows, func(a, b []columnar.Value) int { return int(a[0].I - b[0].I) })
	for k, row := range rows {
		for c, v := range row {
			w := piValue(cols[c], want[k])
			nan := v.Type.IsFloat() && !v.Null && !w.Null && math.IsNaN(v.F) && math.IsNaN(w.F)
			if !nan && !sameValue(v, w) {
				t.Errorf("%s: row %d column %s = %v, want %v", where, want[k], cols[c].name, v, w)
				return
			}
		}
	}
}

// TestScanUnitsFiltered reads through ScanUnits (morsel-driven plans): each
// unit reader applies the filter and the page ranges planned for its row
// group.
func TestScanUnitsFiltered(t *testing.T) {
	tb := openPageIndexed(t)
	cols := piCols()
	pred := index.Pred{Col: 0, Op: index.Between, Vals: []columnar.Value{
		columnar.IntValue(columnar.TInt64, 4990), columnar.IntValue(columnar.TInt64, 5010)}}
	for _, m := range scanModes {
		var st index.ScanStats
		spec := m.spec(allColumns(len(cols)), []index.Pred{pred}, 0, &st)
		units, err := tb.ScanUnits(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		var rows [][]columnar.Value
		for _, open := range units {
			r, err := open(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for {
				b, err := r.Next(context.Background())
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < b.Live(); i++ {
					row := make([]columnar.Value, len(b.Cols))
					for c, v := range b.Cols {
						row[c] = v.Value(b.Row(i))
					}
					rows = append(rows, row)
				}
			}
			r.Close()
		}
		var want []int
		for i := 4990; i <= 5010; i++ {
			want = append(want, i)
		}
		checkRowNums(t, "units "+m.name, cols, rows, want)
		if spec.On(index.BlockPruning) && st.UnitsSkipped != 2 {
			t.Errorf("units %s: %d row groups skipped, want 2", m.name, st.UnitsSkipped)
		}
	}
}

// TestConcurrentFilteredScans runs filtered scans of one table at once
// (page indexes and bloom filters are read and cached lazily): run under
// -race.
func TestConcurrentFilteredScans(t *testing.T) {
	tb := openPageIndexed(t, parquet.WithBloomFilterEnabled(true), parquet.WithBloomFilterNDV(5000))
	cols := piCols()
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			v := int64(1000 + 4000*g)
			pred := index.Pred{Col: 2, Op: index.Eq, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, piRnd(int(v)))}}
			r, err := tb.Scan(context.Background(), index.ScanSpec{Cols: allColumns(len(cols)), Filter: []index.Pred{pred}, Limit: -1, Threads: 2})
			if err != nil {
				errs <- err
				return
			}
			defer r.Close()
			n := 0
			for {
				b, err := r.Next(context.Background())
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					errs <- err
					return
				}
				for i := 0; i < b.Live(); i++ {
					if got := b.Cols[0].Value(b.Row(i)).I; got != v {
						errs <- fmt.Errorf("rnd = rnd(%d) gave id %d", v, got)
						return
					}
					n++
				}
			}
			if n != 1 {
				errs <- fmt.Errorf("rnd = rnd(%d): %d rows, want 1", v, n)
				return
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
