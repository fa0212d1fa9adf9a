package ctable

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestLeafGroups: struct_parents entries become STRUCT columns only when
// their fields and the dotted leaf columns match one to one.
func TestLeafGroups(t *testing.T) {
	parent := func(js string) colSpec {
		doc, err := parseJSON([]byte(`{"metadata": {"struct_parents": {"trip": ` + js + `}}}`))
		if err != nil {
			t.Fatal(err)
		}
		ps, err := structParents(doc)
		if err != nil {
			t.Fatal(err)
		}
		return ps["trip"]
	}
	trip := parent(`{"kind": "struct", "fields": [{"name": "lon", "kind": "float64"}, {"name": "b", "kind": "struct", "fields": [{"name": "t", "kind": "timestamp", "unit": "ms", "timezone": "UTC"}]}], "nullable": true}`)
	leaf := func(name, kind string, extra ...string) colSpec {
		obj := map[string]any{"name": name, "kind": kind}
		for i := 0; i+1 < len(extra); i += 2 {
			obj[extra[i]] = extra[i+1]
		}
		cs, err := parseColSpec(obj)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	for _, tc := range []struct {
		name string
		cols []colSpec
		want string // the group's type, "" for none
	}{
		{"match", []colSpec{leaf("id", "int64"), leaf("trip.lon", "float64"), leaf("trip.b.t", "timestamp", "unit", "ms", "timezone", "UTC")},
			"STRUCT(lon DOUBLE, b STRUCT(t TIMESTAMP WITH TIME ZONE))"},
		{"leaf type wins", []colSpec{leaf("trip.lon", "float32"), leaf("trip.b.t", "int64")}, "STRUCT(lon FLOAT, b STRUCT(t BIGINT))"},
		{"field without leaf", []colSpec{leaf("trip.lon", "float64")}, ""},
		{"leaf that is no field", []colSpec{leaf("trip.lon", "float64"), leaf("trip.b.t", "int64"), leaf("trip.lat", "float64")}, ""},
		{"leaf of a struct field", []colSpec{leaf("trip.lon", "float64"), leaf("trip.b", "int64")}, ""},
		{"leaf left out", []colSpec{leaf("trip.lon", "ndarray"), leaf("trip.b.t", "int64")}, ""},
	} {
		m := &manifest{Cols: tc.cols, Parents: map[string]colSpec{"trip": trip}}
		groups, leafOf := leafGroups(m)
		got := ""
		if g := groups["trip"]; g != nil {
			got = g.typ.String()
			if len(leafOf) != len(g.leaves) {
				t.Errorf("%s: %d leaves marked, group has %d", tc.name, len(leafOf), len(g.leaves))
			}
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if g, _ := leafGroups(&manifest{Cols: []colSpec{leaf("trip.lon", "float64")}}); g != nil {
		t.Errorf("no struct_parents: groups %v", g)
	}
}

// TestStructLeavesWriteRead writes a STRUCT column (stored as leaf
// columns, as python-blosc2's from_arrow does), reads it back as a STRUCT
// and reads each leaf alone through FieldColumn, and appends rows to it.
func TestStructLeavesWriteRead(t *testing.T) {
	st := columnar.StructOf(columnar.Field{Name: "a", Type: columnar.TInt64}, columnar.Field{Name: "b.c", Type: columnar.TVarchar},
		columnar.Field{Name: "x", Type: columnar.StructOf(columnar.Field{Name: "y", Type: columnar.TFloat64}, columnar.Field{Name: "z", Type: columnar.ListOf(columnar.TInt64)})})
	sc := columnar.Schema{{Name: "id", Type: columnar.TInt64}, {Name: "s", Type: st, Nullable: true}}
	i64 := func(v int64) columnar.Value { return columnar.IntValue(columnar.TInt64, v) }
	null := columnar.NullValue
	strct := func(t columnar.Type, fs ...columnar.Value) columnar.Value { return columnar.Value{Type: t, Elems: fs} }
	xt := st.Fields()[2].Type
	rows := [][]columnar.Value{
		{i64(0), strct(st, i64(1), columnar.StringValue("p"), strct(xt, columnar.FloatValue(columnar.TFloat64, 1.5), columnar.Value{Type: xt.Fields()[1].Type, Elems: []columnar.Value{i64(7), null(columnar.TInt64)}}))},
		{i64(1), null(st)},
		{i64(2), strct(st, i64(2), null(columnar.TVarchar), null(xt))},
		{i64(3), strct(st, null(columnar.TInt64), null(columnar.TVarchar), null(xt))},
	}
	// python-blosc2's reading: a struct whose leaves are all NULL is NULL
	// (row 3), a sub-struct under a struct that is not is a struct of its
	// leaves, NULL ones included (row 2).
	want := []string{
		`0|{'a': 1, 'b.c': p, 'x': {'y': 1.5, 'z': [7, NULL]}}`,
		`1|NULL`,
		`2|{'a': 2, 'b.c': NULL, 'x': {'y': NULL, 'z': NULL}}`,
		`3|NULL`,
	}
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64, st}, len(rows))
	b.Len = len(rows)
	for r, row := range rows {
		for c, v := range row {
			b.Cols[c].SetValue(r, b.Len, v)
		}
	}
	path := filepath.Join(t.TempDir(), "s.b2d")
	tb := writeOpen(t, path, sc, b)
	var names []string
	for _, cs := range tb.man.Cols {
		names = append(names, cs.Name)
	}
	if got := strings.Join(names, " "); got != `id s.a s.b\.c s.x.y s.x.z` {
		t.Errorf("physical columns %s", got)
	}
	if len(tb.Schema()) != 2 || tb.Schema()[1].Type != st {
		t.Fatalf("schema %v", tb.Schema())
	}
	checkRows(t, rowTexts(scanAll(t, tb, index.ScanSpec{})), want)
	for _, tc := range []struct {
		path []int
		name string
		want []string
	}{
		{[]int{0}, "s.a", []string{"1", "NULL", "2", "NULL"}},
		{[]int{1}, `s.b\.c`, []string{"p", "NULL", "NULL", "NULL"}},
		{[]int{2, 1}, "s.x.z", []string{"[7, NULL]", "NULL", "NULL", "NULL"}},
	} {
		c, ok := tb.FieldColumn(1, tc.path)
		if !ok || tb.ScanSchema()[c].Name != tc.name {
			t.Fatalf("FieldColumn(1, %v) = %d, %v", tc.path, c, ok)
		}
		checkRows(t, rowTexts(scanAll(t, tb, index.ScanSpec{Cols: []int{c}})), tc.want)
	}
	if _, ok := tb.FieldColumn(1, []int{2}); ok {
		t.Error("FieldColumn of a struct field, which is no leaf column")
	}
	tb.Close()
	// INSERT's path: the appended struct goes to the leaves.
	commitChange(t, path, nil, b)
	got, _ := readAll(t, path)
	checkRows(t, rowTexts(got), append(append([]string{}, want...), want...))
}

// TestStructLeavesPythonFixture reads testdata/ctable_leaves.b2d, a struct
// stored as dotted leaf columns by python-blosc2 (testdata/README.md): the
// rows python-blosc2's null masks give, a struct NULL where every leaf is.
func TestStructLeavesPythonFixture(t *testing.T) {
	tb, err := Open("testdata/ctable_leaves.b2d")
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if got := tb.Schema()[1].Type.String(); len(tb.Schema()) != 2 || got != "STRUCT(lon DOUBLE, lat DOUBLE, begin STRUCT(name VARCHAR, n INTEGER))" {
		t.Fatalf("schema %v (%s)", tb.Schema(), got)
	}
	checkRows(t, rowTexts(scanAll(t, tb, index.ScanSpec{Threads: 1})), []string{
		`1|{'lon': 1.5, 'lat': 2.5, 'begin': {'name': a, 'n': 7}}`,
		`2|NULL`,
		`3|{'lon': -3.0, 'lat': NULL, 'begin': {'name': NULL, 'n': NULL}}`,
		`4|{'lon': NULL, 'lat': NULL, 'begin': {'name': é, 'n': 0}}`,
	})
	c, ok := tb.FieldColumn(1, []int{2, 0})
	if !ok || tb.ScanSchema()[c].Name != "trip.begin.name" {
		t.Fatalf("FieldColumn(trip, begin.name) = %d, %v", c, ok)
	}
	checkRows(t, rowTexts(scanAll(t, tb, index.ScanSpec{Cols: []int{c}, Threads: 1})), []string{"a", "NULL", "NULL", "é"})
}
