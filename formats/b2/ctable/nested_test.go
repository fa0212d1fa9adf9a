package ctable

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// nestedFixtureRows are the live rows of testdata/ctable_nested.b2d, as
// python-blosc2 4.11.0 printed them after writing it (testdata/README.md),
// in SQL's text: timestamps in ms floored to µs, bytes as \x escapes.
var nestedFixtureRows = []string{
	`1|{'a': 1, 'b': x, 'c': 1.5, 'n': {'p': 7}, 'l': [0.5]}|[1, 2]|[{'x': 1, 'y': p}]|['1970-01-01 00:00:01.5', '1969-12-31 23:59:59.999']|[\x00\x01]`,
	`2|NULL|NULL|[]|[]|[]`,
	`4|{'a': -4, 'b': é, 'c': NULL, 'n': {'p': NULL}, 'l': []}|[-2147483648, 2147483647]|NULL|['1970-01-02 00:00:00']|[ab, c]`,
}

// TestNestedPythonFixture reads python-blosc2's struct and list columns:
// a struct with nested struct and list fields, lists of integers, structs,
// timestamps and bytes, NULL at every level, and a deleted row.
func TestNestedPythonFixture(t *testing.T) {
	tb, err := Open("testdata/ctable_nested.b2d")
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	wantTypes := []string{"BIGINT", "STRUCT(a INTEGER, b VARCHAR, c DOUBLE, n STRUCT(p BIGINT), l DOUBLE[])",
		"INTEGER[]", "STRUCT(x BIGINT, y VARCHAR)[]", "TIMESTAMP[]", "BLOB[]"}
	var got []string
	for _, f := range tb.Schema() {
		got = append(got, f.Type.String())
	}
	if strings.Join(got, "; ") != strings.Join(wantTypes, "; ") {
		t.Fatalf("types %q, want %q", got, wantTypes)
	}
	if s := tb.Skipped(); len(s) != 0 {
		t.Errorf("skipped %v", s)
	}
	checkRows(t, rowTexts(scanAll(t, tb, index.ScanSpec{})), nestedFixtureRows)
}

func rowTexts(rows [][]columnar.Value) []string {
	return strings.Split(strings.TrimSuffix(rowsText(rows), "\n"), "\n")
}

func checkRows(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestNestedWriteRoundTrip writes the fixture's rows with Writer (in
// batches of two, the second selected) and reads them back; with
// B2SQL_PYBLOSC2 set (see pyNestedCheck) python-blosc2 must read the same.
func TestNestedWriteRoundTrip(t *testing.T) {
	src, err := Open("testdata/ctable_nested.b2d")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	rows := scanAll(t, src, index.ScanSpec{})
	sc := src.Schema()
	for i := range sc {
		sc[i].Nullable = true
	}
	types := make([]columnar.Type, len(sc))
	for i, f := range sc {
		types[i] = f.Type
	}
	path := filepath.Join(t.TempDir(), "n.b2d")
	w, err := Create(path, sc, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < len(rows); start += 2 {
		part := rows[start:min(start+2, len(rows))]
		b := columnar.NewBatch(types, len(part)+1)
		b.Len = len(part) + 1
		for c := range sc {
			b.Cols[c].SetValue(0, b.Len, columnar.NullValue(sc[c].Type)) // not selected
			for r, row := range part {
				b.Cols[c].SetValue(r+1, b.Len, row[c])
			}
		}
		b.Sel = []int{}
		for r := range part {
			b.Sel = append(b.Sel, r+1)
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	dst, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	checkRows(t, rowTexts(scanAll(t, dst, index.ScanSpec{})), nestedFixtureRows)
	pyNestedCheck(t, path)
}

// pyNestedCheck has python-blosc2 print the table at path (pyCheck) and
// compares with python's own printing of the fixture it wrote.
func pyNestedCheck(t *testing.T, path string) {
	// The columns as python-blosc2 exports them (to_arrow): a struct
	// stored as leaf columns (leaves.go) by its name, assembled from its
	// leaves as python-blosc2's _StructPathColumn does (None when every
	// leaf is), each leaf read with its NULL mask (python-blosc2's scalar
	// access shows a mask NULL's fill value, 0 or nan).
	const script = `import blosc2, sys
t = blosc2.open(sys.argv[1])
def leaf(c, r):
    col = t[c]
    if col._nulls.is_null_at(r):
        return None
    v = t._normalize_scalar_value(col[r])
    return int(v) if c == "id" else v
def value(c, r):
    if c in t.col_names:
        return leaf(c, r)
    out, null = {}, True
    for n in t.col_names:
        parts = n.split(".")
        if parts[0] != c:
            continue
        v = leaf(n, r)
        null = null and v is None
        node = out
        for p in parts[1:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = v
    return None if null else out
for r in range(len(t)):
    print([value(c, r) for c in t._resolve_arrow_columns(None)])`
	// python-blosc2's own printing of the fixture (testdata/README.md);
	// timestamps are µs in b2sql's copy.
	want := `[1, {'a': 1, 'b': 'x', 'c': 1.5, 'n': {'p': 7}, 'l': [0.5]}, [1, 2], [{'x': 1, 'y': 'p'}], [1500000, -1000], [b'\x00\x01']]
[2, None, None, [], [], []]
[4, {'a': -4, 'b': 'é', 'c': None, 'n': {'p': None}, 'l': []}, [-2147483648, 2147483647], None, [86400000000], [b'ab', b'c']]`
	pyCheck(t, path, script, want)
}

// TestNestedAppend appends a row to python-blosc2's table (INSERT's
// path): the new items join the stored batches, the old rows stay.
func TestNestedAppend(t *testing.T) {
	path := copyTree(t, "ctable_nested.b2d")
	sc, types, rows := tableRows(t, path)
	b := columnar.NewBatch(types, 1)
	b.Len = 1
	b.Cols[0].SetValue(0, 1, columnar.IntValue(columnar.TInt64, 5))
	for c := 1; c < len(sc); c++ {
		b.Cols[c].SetValue(0, 1, rows[0][c]) // row 1's values
	}
	commitChange(t, path, nil, b)
	got, _ := readAll(t, path)
	want := append(append([]string{}, nestedFixtureRows...), "5"+strings.TrimPrefix(nestedFixtureRows[0], "1"))
	checkRows(t, rowTexts(got), want)
}

// TestNestedWriteRefused: kinds python-blosc2 4.11 has not are refused
// with ErrUnsupported naming them.
func TestNestedWriteRefused(t *testing.T) {
	for _, tc := range []struct {
		typ  columnar.Type
		want string
	}{
		{columnar.MapOf(columnar.ListOf(columnar.TInt64), columnar.TInt64), "cannot read map keys that are lists"},
		{columnar.ListOf(columnar.ListOf(columnar.TInt64)), "no lists of lists"},
		// A STRUCT's fields are leaf columns (leafwrite.go): refused as a
		// TIME column is, naming the leaf.
		{columnar.StructOf(columnar.Field{Name: "t", Type: columnar.TTime}), `field "c.t": unsupported feature: type TIME`},
		{columnar.ListOf(columnar.StructOf(columnar.Field{Name: "t", Type: columnar.TTime})), "TIME inside a nested CTable column"},
	} {
		_, err := Create(filepath.Join(t.TempDir(), "x.b2d"), columnar.Schema{{Name: "c", Type: tc.typ}}, CreateOptions{})
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrUnsupported with %q", tc.typ, err, tc.want)
		}
	}
}
