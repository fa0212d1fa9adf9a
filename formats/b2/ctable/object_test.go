package ctable

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// objectFixtureRows are the live rows of testdata/ctable_objects.b2d as
// python-blosc2 printed them after writing it (testdata/README.md), in
// SQL's text: lists of (key, value) tuples and dicts as MAPs, the mixed
// column as JSON text.
var objectFixtureRows = []string{
	`1|{a=1, b=NULL}|{x=1.5, y=2.0}|{1=one, 2=NULL}|[1, 2, 3]|1|[{k=1}, NULL]`,
	`3|{}|{}|{}|[4, 5]|[1,2]|[]`,
	`4|{c=-3}|{z=-1.0}|{-7=seven}|[]|{"k":true,"n":null}|[{}, {q=2, r=3}]`,
	`5|{é=5}|{w=0.0}|{0=''}|[NULL]|NULL|[{s=NULL}]`,
}

// objectFixtureTypes are the types the fixture's values say (object.go):
// a list of (str, int) tuples and dicts of str → int are MAP(VARCHAR,
// BIGINT); dicts of int and float values MAP(VARCHAR, DOUBLE); (int, str)
// tuples MAP(BIGINT, VARCHAR); lists and a tuple of ints BIGINT[]; an
// int, a str, a list and a dict JSON text; a list column of object items
// holding maps MAP(VARCHAR, BIGINT)[].
var objectFixtureTypes = []string{"BIGINT", "MAP(VARCHAR, BIGINT)", "MAP(VARCHAR, DOUBLE)", "MAP(BIGINT, VARCHAR)",
	"BIGINT[]", "VARCHAR", "MAP(VARCHAR, BIGINT)[]"}

func schemaTypes(tb *Table) []string {
	var got []string
	for _, f := range tb.Schema() {
		got = append(got, f.Type.String())
	}
	return got
}

// TestObjectPythonFixture reads python-blosc2's object columns (the kind
// its from_arrow gives a MAP): their types inferred from the values, a
// NULL row, a deleted row.
func TestObjectPythonFixture(t *testing.T) {
	tb, err := Open("testdata/ctable_objects.b2d")
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if got := schemaTypes(tb); strings.Join(got, "; ") != strings.Join(objectFixtureTypes, "; ") {
		t.Fatalf("types %q, want %q", got, objectFixtureTypes)
	}
	if s := tb.Skipped(); len(s) != 0 {
		t.Errorf("skipped %v", s)
	}
	checkRows(t, rowTexts(scanAll(t, tb, index.ScanSpec{})), objectFixtureRows)
}

// TestObjectInferenceSample: the type comes from the first sampleRows
// rows ({"k": int}); row 20480's {"k": "x"} does not fit it and reading
// it is an error naming the row and the inferred type, not a guess.
func TestObjectInferenceSample(t *testing.T) {
	tb, err := Open("testdata/ctable_objects_late.b2d")
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if got := schemaTypes(tb); strings.Join(got, "; ") != "BIGINT; MAP(VARCHAR, BIGINT)" {
		t.Fatalf("types %q", got)
	}
	r, err := tb.Scan(t.Context(), index.ScanSpec{Cols: []int{1}, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for {
		b, err := r.Next(t.Context())
		if err != nil {
			want := `row 20480: {"k": "x"} does not fit MAP(VARCHAR, BIGINT), the type of this python-blosc2 object column inferred from its first 20480 rows`
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v, want %q", err, want)
			}
			return
		}
		if b == nil {
			t.Fatal("row 20480 read without an error")
		}
	}
}

// TestObjectShapes checks the type each set of sampled values gives.
func TestObjectShapes(t *testing.T) {
	tup := func(k, v any) any { return []any{"__tuple__", k, v} }
	for _, tc := range []struct {
		vals []any
		want string
	}{
		{[]any{int64(1), float64(2.5)}, "DOUBLE"},
		{[]any{int64(1), uint64(1 << 63)}, "DOUBLE"},
		{[]any{int64(1), "x"}, "VARCHAR"}, // JSON text
		{[]any{nil, nil}, "VARCHAR"},      // only NULL: JSON text
		{[]any{[]any{}, mpMap{{"a", true}}}, "MAP(VARCHAR, BOOLEAN)"},
		{[]any{mpMap{{"a", int64(1)}}, []any{}}, "MAP(VARCHAR, BIGINT)"},
		{[]any{[]any{tup(int64(1), []byte("b"))}, []any{tup(int64(2), nil)}}, "MAP(BIGINT, BLOB)"},
		{[]any{[]any{tup("a", int64(1)), int64(2)}}, "VARCHAR[]"}, // a tuple and an int: JSON text items
		{[]any{[]any{int64(1), nil}, []any{"__tuple__", int64(2), int64(3)}}, "BIGINT[]"},
		{[]any{[]any{[]any{int64(1)}}, []any{[]any{"x"}}}, "VARCHAR[][]"},
		{[]any{mpMap{{"a", int64(1)}}, mpMap{{"b", "x"}}}, "MAP(VARCHAR, VARCHAR)"},
		{[]any{mpMap{{"a", nil}}}, "MAP(VARCHAR, VARCHAR)"},
		{[]any{mpExt{Type: 42}}, "VARCHAR"},
	} {
		s := &shape{}
		for _, v := range tc.vals {
			s.add(v)
		}
		if got := s.nest().typ.String(); got != tc.want {
			t.Errorf("%s: %s, want %s", render(tc.vals), got, tc.want)
		}
	}
}

// TestObjectRecordedKinds: a MAP's type is recorded when b2sql writes
// it, so types the values do not tell (INTEGER, not BIGINT; TIMESTAMP,
// not BIGINT) and a table with no rows read back as written.
func TestObjectRecordedKinds(t *testing.T) {
	mt := columnar.MapOf(columnar.TInt32, columnar.TTimestamp)
	et := columnar.MapOf(columnar.TVarchar, columnar.ListOf(columnar.TFloat64))
	sc := columnar.Schema{{Name: "m", Type: mt, Nullable: true}, {Name: "e", Type: et, Nullable: true}}
	for _, n := range []int{0, 2} {
		b := columnar.NewBatch([]columnar.Type{mt, et}, n)
		b.Len = n
		for r := range n {
			k := columnar.IntValue(columnar.TInt32, int64(r+1))
			ts := columnar.IntValue(columnar.TTimestamp, 86_400_000_000*int64(r))
			b.Cols[0].SetValue(r, n, columnar.Value{Type: mt, Elems: []columnar.Value{{Type: mt.Elem(), Elems: []columnar.Value{k, ts}}}})
			b.Cols[1].SetValue(r, n, columnar.NullValue(et))
		}
		tb := writeOpen(t, filepath.Join(t.TempDir(), "k.b2d"), sc, b)
		if got := schemaTypes(tb); strings.Join(got, "; ") != "MAP(INTEGER, TIMESTAMP); MAP(VARCHAR, DOUBLE[])" {
			t.Errorf("%d rows: types %q", n, got)
		}
		want := []string{"{1='1970-01-01 00:00:00'}|NULL", "{2='1970-01-02 00:00:00'}|NULL"}[:n]
		if got := rowTexts(scanAll(t, tb, index.ScanSpec{})); n > 0 {
			checkRows(t, got, want)
		}
		tb.Close()
	}
}

// TestObjectWriteRoundTrip writes the fixture's rows with Writer: MAP
// columns become object columns with their type recorded
// (metadata.b2sql_kinds), which read back with the same types and
// values; with B2SQL_PYBLOSC2 set python-blosc2 must read dicts where the
// keys are strings and (key, value) tuples otherwise (its msgpack reader
// allows no other dict keys).
func TestObjectWriteRoundTrip(t *testing.T) {
	sc, types, rows := tableRows(t, "testdata/ctable_objects.b2d")
	path := filepath.Join(t.TempDir(), "o.b2d")
	b := columnar.NewBatch(types, len(rows))
	b.Len = len(rows)
	for c := range sc {
		for r, row := range rows {
			b.Cols[c].SetValue(r, b.Len, row[c])
		}
	}
	dst := writeOpen(t, path, sc, b)
	defer dst.Close()
	if got := schemaTypes(dst); strings.Join(got, "; ") != strings.Join(objectFixtureTypes, "; ") {
		t.Fatalf("types %q, want %q", got, objectFixtureTypes)
	}
	checkRows(t, rowTexts(scanAll(t, dst, index.ScanSpec{})), objectFixtureRows)
	if k := dst.man.Kinds["m"]; k == nil || k["kind"] != "map" {
		t.Errorf("recorded kind of m: %v, want a map", dst.man.Kinds["m"])
	}
	const script = `import blosc2, sys
t = blosc2.open(sys.argv[1])
print([str(t.schema.columns_by_name[c].spec.to_metadata_dict()["kind"]) for c in t.col_names])
def value(c, r):
    col = t[c]
    if c == "mixed":  # a string column with a NULL mask
        return None if col._nulls.is_null_at(r) else str(col[r])
    return int(col[r]) if c == "id" else col[r]
for r in range(len(t)):
    print([value(c, r) for c in t.col_names])`
	// The fixture's values as python-blosc2 printed them (testdata/README.md),
	// with dicts for its str-keyed maps; mixed is JSON text in a string column.
	want := `['int64', 'object', 'object', 'object', 'list', 'string', 'list']
[1, {'a': 1, 'b': None}, {'x': 1.5, 'y': 2.0}, [(1, 'one'), (2, None)], [1, 2, 3], '1', [{'k': 1}, None]]
[3, {}, {}, [], [4, 5], '[1,2]', []]
[4, {'c': -3}, {'z': -1.0}, [(-7, 'seven')], [], '{"k":true,"n":null}', [{}, {'q': 2, 'r': 3}]]
[5, {'é': 5}, {'w': 0.0}, [(0, '')], [None], None, [{'s': None}]]`
	pyCheck(t, path, script, want)
}

// TestObjectAppend appends rows to python-blosc2's object columns
// (INSERT's path): the new items join the stored batches as msgpack, the
// old rows stay, and the column keeps its inferred type.
func TestObjectAppend(t *testing.T) {
	path := copyTree(t, "ctable_objects.b2d")
	sc, types, rows := tableRows(t, path)
	b := columnar.NewBatch(types, 2)
	b.Len = 2
	for c := range sc {
		b.Cols[c].SetValue(0, 2, rows[0][c]) // row 1's values
		b.Cols[c].SetValue(1, 2, columnar.NullValue(sc[c].Type))
	}
	b.Cols[0].SetValue(0, 2, columnar.IntValue(columnar.TInt64, 6))
	b.Cols[0].SetValue(1, 2, columnar.IntValue(columnar.TInt64, 7))
	commitChange(t, path, nil, b)
	got, _ := readAll(t, path)
	want := append(append([]string{}, objectFixtureRows...), "6"+strings.TrimPrefix(objectFixtureRows[0], "1"), "7|NULL|NULL|NULL|NULL|NULL|NULL")
	checkRows(t, rowTexts(got), want)
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if got := schemaTypes(tb); strings.Join(got, "; ") != strings.Join(objectFixtureTypes, "; ") {
		t.Errorf("types %q, want %q", got, objectFixtureTypes)
	}
	// python-blosc2 reads the old rows as it wrote them and the new ones as
	// b2sql encodes them: dicts for str keys, tuples else, the JSON text
	// "1" of mixed as the value 1.
	pyRows(t, path, `[1, [('a', 1), ('b', None)], {'x': 1.5, 'y': 2}, [(1, 'one'), (2, None)], [1, 2, 3], 1, [[('k', 1)], None]]
[3, [], {}, [], (4, 5), [1, 2], []]
[4, [('c', -3)], {'z': -1}, [(-7, 'seven')], [], {'k': True, 'n': None}, [[], [('q', 2), ('r', 3)]]]
[5, [('é', 5)], {'w': 0}, [(0, '')], [None], None, [[('s', None)]]]
[6, {'a': 1, 'b': None}, {'x': 1.5, 'y': 2.0}, [(1, 'one'), (2, None)], [1, 2, 3], 1, [{'k': 1}, None]]
[7, None, None, None, None, None, None]`)
}

// pyRows has python-blosc2 print the live rows of the table at path (id
// as an int) and compares with want (pyCheck).
func pyRows(t *testing.T, path, want string) {
	pyCheck(t, path, `import blosc2, sys
t = blosc2.open(sys.argv[1])
for r in range(len(t)):
    print([int(t[c][r]) if c == "id" else t[c][r] for c in t.col_names])`, want)
}

// TestObjectLeafPythonFixture reads a STRUCT(a BIGINT, m MAP(VARCHAR,
// DOUBLE)) stored as python-blosc2's from_arrow stores it: leaf columns
// s.a (int64, mask nulls) and s.m (object, lists of (key, value) tuples)
// with s in struct_parents. The MAP's type is inferred from the leaf's
// values.
func TestObjectLeafPythonFixture(t *testing.T) {
	tb, err := Open("testdata/ctable_object_leaf.b2d")
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if got := schemaTypes(tb); strings.Join(got, "; ") != "BIGINT; STRUCT(a BIGINT, m MAP(VARCHAR, DOUBLE))" {
		t.Fatalf("types %q", got)
	}
	// python-blosc2 printed t["s"] as {'a': 10, 'm': [('x', 1.5)]}, None,
	// {'a': 30, 'm': []}, {'a': 0, 'm': [('y', -2.0), ('z', None)]} (its
	// scalar access shows the mask NULL of s.a in row 4 as 0).
	checkRows(t, rowTexts(scanAll(t, tb, index.ScanSpec{})), []string{
		`1|{'a': 10, 'm': {x=1.5}}`,
		`2|NULL`,
		`3|{'a': 30, 'm': {}}`,
		`4|{'a': NULL, 'm': {y=-2.0, z=NULL}}`,
	})
}
