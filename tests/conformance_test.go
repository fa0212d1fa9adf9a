package tests

// Conformance of table formats to the planner's capability interfaces
// (STYLE.md §5): the compile-time assertions below, and a behavioural check
// that what a table promises in SupportsFilter holds when it scans: an
// Exact predicate returns exactly the matching rows, an Inexact or
// Unsupported one at least all of them, and NoPrune returns every row.
// The fixture is written with arrow-go and the expected rows are computed
// from the same formulas, independently of the table under test.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/planner"
)

var (
	_ planner.Table         = (*parquet.Table)(nil)
	_ planner.FilterPusher  = (*parquet.Table)(nil)
	_ planner.RowCounter    = (*parquet.Table)(nil)
	_ planner.ScanDescriber = (*parquet.Table)(nil)
)

// conformanceRows is the fixture: 10000 rows in 20 row groups of 500.
//
//	id BIGINT   i
//	n  INTEGER  i, NULL when i % 10 = 0
//	k  VARCHAR  'k' || i zero-padded to 5 digits
//	x  DOUBLE   (i % 100) * 0.5 (unsorted: every row group spans 0..49.5)
const conformanceRows = 10000

func conformanceTable(t *testing.T) *parquet.Table {
	t.Helper()
	ds, err := parseDataHeader([]string{"generate", "conf", fmt.Sprintf("rows=%d", conformanceRows), "rowgroup=500"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.parseGenerateBody([]string{
		"id BIGINT seq",
		"n INTEGER nullevery 10",
		"k VARCHAR i prefix=k pad=5",
		"x DOUBLE (i%100)*0.5",
	}); err != nil {
		t.Fatal(err)
	}
	path, err := ds.write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tb, err := parquet.Open(path)
	if err != nil {
		t.Fatalf("parquet.Open: %v", err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// confValue returns column c of row i as the fixture defines it.
func confValue(c, i int) columnar.Value {
	switch c {
	case 0:
		return columnar.IntValue(columnar.TInt64, int64(i))
	case 1:
		if i%10 == 0 {
			return columnar.NullValue(columnar.TInt32)
		}
		return columnar.IntValue(columnar.TInt32, int64(i))
	case 2:
		return columnar.StringValue(fmt.Sprintf("k%05d", i))
	}
	return columnar.FloatValue(columnar.TFloat64, float64(i%100)*0.5)
}

// holds evaluates p on row i with SQL semantics (a NULL never matches a comparison).
func holds(p index.Pred, i int) bool {
	if p.Op == index.Or {
		for _, q := range p.Any {
			if holds(q, i) {
				return true
			}
		}
		return false
	}
	v := confValue(p.Col, i)
	switch p.Op {
	case index.IsNull:
		return v.Null
	case index.IsNotNull:
		return !v.Null
	}
	if v.Null {
		return false
	}
	c := func(k int) int { return columnar.Compare(v, p.Vals[k]) }
	switch p.Op {
	case index.Eq:
		return c(0) == 0
	case index.Ne:
		return c(0) != 0
	case index.Lt:
		return c(0) < 0
	case index.Le:
		return c(0) <= 0
	case index.Gt:
		return c(0) > 0
	case index.Ge:
		return c(0) >= 0
	case index.Between:
		return c(0) >= 0 && c(1) <= 0
	case index.In:
		for k := range p.Vals {
			if c(k) == 0 {
				return true
			}
		}
		return false
	}
	panic("unknown op")
}

// scanIDs scans the table with spec and returns the ids (column 0 must be
// among spec.Cols, at output position 0) of the rows it produced, checking
// the other columns against the fixture.
func scanIDs(t *testing.T, tb *parquet.Table, spec index.ScanSpec) []int {
	t.Helper()
	ctx := context.Background()
	r, err := tb.Scan(ctx, spec)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	defer func() {
		if err := r.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if err := r.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	}()
	var ids []int
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			if b != nil {
				t.Errorf("Next returned a batch with io.EOF")
			}
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if b.Live() == 0 {
			t.Errorf("Next returned a batch without live rows")
		}
		if len(b.Cols) != len(spec.Cols) {
			t.Fatalf("batch has %d columns, spec asks for %d", len(b.Cols), len(spec.Cols))
		}
		for k := 0; k < b.Live(); k++ {
			row := b.Row(k)
			idv := b.Cols[0].Value(row)
			if idv.Null {
				t.Fatalf("NULL id")
			}
			id := int(idv.I)
			for j, c := range spec.Cols {
				got, want := b.Cols[j].Value(row), confValue(c, id)
				if got.Null != want.Null || (!got.Null && columnar.Compare(got, want) != 0) {
					t.Fatalf("row id %d column %d: got %v, want %v", id, c, got, want)
				}
			}
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

func TestParquetConformance(t *testing.T) {
	tb := conformanceTable(t)
	if got := tb.RowCount(); got != conformanceRows {
		t.Errorf("RowCount = %d, want %d", got, conformanceRows)
	}
	wantSchema := []struct {
		name string
		typ  columnar.Type
	}{{"id", columnar.TInt64}, {"n", columnar.TInt32}, {"k", columnar.TVarchar}, {"x", columnar.TFloat64}}
	sc := tb.Schema()
	if len(sc) != len(wantSchema) {
		t.Fatalf("schema %v, want %v", sc, wantSchema)
	}
	for k, w := range wantSchema {
		if sc[k].Name != w.name || sc[k].Type != w.typ {
			t.Errorf("column %d: %s %s, want %s %s", k, sc[k].Name, sc[k].Type, w.name, w.typ)
		}
	}

	i64 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt64, v) }
	i32 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt32, v) }
	str := columnar.StringValue
	f64 := func(v float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, v) }
	p := func(col int, op index.Op, vals ...columnar.Value) index.Pred {
		return index.Pred{Col: col, Op: op, Vals: vals}
	}
	preds := []index.Pred{
		p(0, index.Eq, i64(4321)),
		p(0, index.Eq, i64(-1)),
		p(0, index.Ne, i64(5)),
		p(0, index.Lt, i64(501)),
		p(0, index.Le, i64(500)),
		p(0, index.Gt, i64(9498)),
		p(0, index.Ge, i64(9999)),
		p(0, index.Gt, i64(20000)),
		p(0, index.Between, i64(1499), i64(1501)),
		p(0, index.In, i64(3), i64(5000), i64(9999), i64(12345)),
		p(1, index.IsNull),
		p(1, index.IsNotNull),
		p(1, index.Lt, i32(15)),
		p(1, index.Eq, i32(100)),
		p(2, index.Ge, str("k09990")),
		p(2, index.Eq, str("k01234")),
		p(2, index.Lt, str("k")),
		p(2, index.Between, str("k005"), str("k0051")),
		p(3, index.Gt, f64(49)),
		p(3, index.Eq, f64(0.25)),
		{Op: index.Or, Any: []index.Pred{p(0, index.Lt, i64(10)), p(0, index.Gt, i64(9990))}},
		{Op: index.Or, Any: []index.Pred{p(0, index.Eq, i64(7)), p(1, index.IsNull)}},
	}
	allCols := []int{0, 1, 2, 3}
	for _, pred := range preds {
		var want []int
		for i := 0; i < conformanceRows; i++ {
			if holds(pred, i) {
				want = append(want, i)
			}
		}
		sup := tb.SupportsFilter(pred)
		name := fmt.Sprintf("%s/%s", pred.String(sc), sup)
		t.Run(name, func(t *testing.T) {
			for _, threads := range []int{1, 2} {
				for _, noPrune := range []bool{false, true} {
					spec := index.ScanSpec{Cols: allCols, Filter: []index.Pred{pred}, Limit: -1, Threads: threads, NoPrune: noPrune}
					got := scanIDs(t, tb, spec)
					where := fmt.Sprintf("threads=%d noprune=%v", threads, noPrune)
					if len(slices.Compact(slices.Clone(got))) != len(got) {
						t.Errorf("%s: a row was produced twice", where)
					}
					if sup == index.Exact && !noPrune {
						if !slices.Equal(got, want) {
							t.Errorf("%s: Exact predicate returned %d rows, want %d", where, len(got), len(want))
						}
						continue
					}
					// Inexact or Unsupported (or pruning off): a superset.
					missing := 0
					for _, id := range want {
						if _, ok := slices.BinarySearch(got, id); !ok {
							missing++
						}
					}
					if missing > 0 {
						t.Errorf("%s: %d of %d matching rows were skipped", where, missing, len(want))
					}
					if noPrune && sup != index.Exact && len(got) != conformanceRows {
						t.Errorf("%s: got %d rows with pruning off, want all %d", where, len(got), conformanceRows)
					}
				}
			}
		})
	}

	// A projection in another order, and a scan with a limit.
	t.Run("projection", func(t *testing.T) {
		got := scanIDs(t, tb, index.ScanSpec{Cols: []int{0, 3, 2}, Limit: -1})
		if len(got) != conformanceRows {
			t.Errorf("got %d rows, want %d", len(got), conformanceRows)
		}
	})
	t.Run("limit", func(t *testing.T) {
		got := scanIDs(t, tb, index.ScanSpec{Cols: []int{0}, Limit: 10, Threads: 2})
		if len(got) < 10 {
			t.Errorf("Limit 10 produced %d rows, want at least 10", len(got))
		}
	})
	// Row-group statistics must actually be used, or the pruning=on|off
	// matrix of the SQL tests compares two identical things: id = 4321 lies
	// in one row group of 500.
	t.Run("prunes", func(t *testing.T) {
		got := scanIDs(t, tb, index.ScanSpec{Cols: allCols, Filter: []index.Pred{preds[0]}, Limit: -1})
		if len(got) > 500 {
			t.Errorf("id = 4321 produced %d rows: row groups were not skipped", len(got))
		}
	})
	t.Run("describe", func(t *testing.T) {
		if s := tb.DescribeScan(index.ScanSpec{Cols: allCols, Filter: []index.Pred{preds[0]}, Limit: -1}); s == "" {
			t.Errorf("DescribeScan returned an empty string")
		}
	})
}
