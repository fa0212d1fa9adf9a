package parquet

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// structFieldsFile is DuckDB's struct_fields.parquet (tests/testdata/files,
// README there): 3000 rows of id BIGINT and s STRUCT(a BIGINT, b VARCHAR,
// x STRUCT(y BIGINT, z BIGINT[]), c BIGINT[], m MAP(VARCHAR, BIGINT),
// t TIMESTAMPTZ), s NULL every 7th row, a every 11th, x every 5th; two
// row groups (rows 0-2047, 2048-2999).
const structFieldsFile = "../../tests/testdata/files/struct_fields.parquet"

// TestFieldColumns reads every field column of s and checks each row
// against the field taken out of s read whole (arrow-go's record reader),
// NULL where s or a field on the way is NULL.
func TestFieldColumns(t *testing.T) {
	tb, err := Open(structFieldsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if len(tb.Schema()) != 2 {
		t.Fatalf("schema %v: the field columns must stay hidden", tb.Schema())
	}
	paths := map[string][]int{"s.a": {0}, "s.b": {1}, "s.x": {2}, "s.x.y": {2, 0}, "s.x.z": {2, 1}, "s.c": {3}, "s.m": {4}, "s.t": {5}}
	cols := []int{1}
	var names []string
	for name, p := range paths {
		c, ok := tb.FieldColumn(1, p)
		if !ok {
			t.Fatalf("no field column for %s", name)
		}
		if got := tb.ScanSchema()[c].Name; got != name {
			t.Errorf("column %d is named %q, want %q", c, got, name)
		}
		cols = append(cols, c)
		names = append(names, name)
	}
	if _, ok := tb.FieldColumn(1, []int{2, 2}); ok {
		t.Error("FieldColumn of a field s.x does not have")
	}
	if _, ok := tb.FieldColumn(0, []int{0}); ok {
		t.Error("FieldColumn of a BIGINT column")
	}
	rows := readAll(t, tb, index.ScanSpec{Cols: cols, Limit: -1, Threads: 2})
	if len(rows) != 3000 {
		t.Fatalf("%d rows", len(rows))
	}
	nulls := map[string]int{}
	for r, row := range rows {
		for i, name := range names {
			want := row[0]
			for _, p := range paths[name] {
				if want.Null {
					want = columnar.NullValue(want.Type.Fields()[p].Type)
				} else {
					want = want.Elems[p]
				}
			}
			got := row[i+1]
			if got.Null != want.Null || got.Type != want.Type || (!got.Null && got.String() != want.String()) {
				t.Fatalf("row %d %s = %v (%s), s gives %v (%s)", r, name, got, got.Type, want, want.Type)
			}
			if got.Null {
				nulls[name]++
			}
		}
	}
	// By the formulas: s NULL where i%7 == 0 (429 rows); a also where
	// i%11 == 0 (663 in all), x where i%5 == 0 (943), c where i%3 == 0.
	for name, want := range map[string]int{"s.a": 663, "s.x": 943, "s.x.y": 943, "s.b": 429, "s.m": 429} {
		if nulls[name] != want {
			t.Errorf("%s: %d NULLs, want %d", name, nulls[name], want)
		}
	}
}

// TestFieldColumnPruning checks that a filter on s.a skips row groups by
// the leaf's statistics and that reading s.a reads only its leaf.
func TestFieldColumnPruning(t *testing.T) {
	tb, err := Open(structFieldsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	a, _ := tb.FieldColumn(1, []int{0})
	var st index.ScanStats
	filter := []index.Pred{{Col: a, Op: index.Between, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 100), columnar.IntValue(columnar.TInt64, 200)}}}
	if got := tb.SupportsFilter(filter[0]); got != index.Exact {
		t.Fatalf("SupportsFilter(s.a BETWEEN) = %v", got)
	}
	rows := readAll(t, tb, index.ScanSpec{Cols: []int{a}, Filter: filter, Limit: -1, Threads: 1, Stats: &st})
	// Rows 100..200 whose s and s.a are not NULL (not i%7 == 0, not
	// i%11 == 0): 101 - 14 - 9 + 1 (154 is both).
	if len(rows) != 79 {
		t.Errorf("%d rows, want 79", len(rows))
	}
	if st.UnitsTotal != 2 || st.UnitsSkipped != 1 {
		t.Errorf("row groups: %d of %d skipped, want 1 of 2", st.UnitsSkipped, st.UnitsTotal)
	}
	bytesOf := func(col int) int64 {
		var st index.ScanStats
		readAll(t, tb, index.ScanSpec{Cols: []int{col}, Limit: -1, Threads: 1, Stats: &st})
		return st.BytesRead
	}
	whole, leaf := bytesOf(1), bytesOf(a)
	if leaf <= 0 || leaf*4 > whole {
		t.Errorf("s.a read %d bytes, s whole %d: the leaf alone should be a small part", leaf, whole)
	}
}
