package b2sql_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	b2sql "github.com/b2sql/b2sql"
)

// TestRecordReaderNested: LIST, STRUCT and MAP columns come out as Arrow
// list, struct and map arrays, with NULL and empty lists, NULL fields,
// elements and map values in place, in file order, under a selection and
// from rows a sort reordered (RecordToJSON writes keys in name order).
// Values by hand from DuckDB's reading of the
// DuckDB-written tests/testdata/files/nested.parquet (see nested_scan_test.go).
func TestRecordReaderNested(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows := map[int]string{
		1: `{"id":1,"l":[1,10],"m":[{"key":"k1","value":1},{"key":"z","value":null}],"s":{"a":1,"b":"n1","c":[1,2]},"t":["x","y1"]}`,
		2: `{"id":2,"l":[2,20,null],"m":null,"s":{"a":2,"b":"n2","c":[2,3]},"t":["x","y0"]}`,
		3: `{"id":3,"l":null,"m":[{"key":"k3","value":3},{"key":"z","value":null}],"s":{"a":3,"b":"n3","c":[3,4]},"t":["x","y1"]}`,
		4: `{"id":4,"l":[],"m":[{"key":"k4","value":4},{"key":"z","value":null}],"s":{"a":4,"b":"n4","c":[4,5]},"t":["x","y0"]}`,
		5: `{"id":5,"l":[5,50],"m":[{"key":"k5","value":5},{"key":"z","value":null}],"s":null,"t":["x","y1"]}`,
		6: `{"id":6,"l":[6,60,null],"m":[{"key":"k6","value":6},{"key":"z","value":null}],"s":{"a":6,"b":"n6","c":[6,7]},"t":["x","y0"]}`,
	}
	const schema = "id: type=int64, nullable; l: type=list<element: int64, nullable>, nullable; " +
		"s: type=struct<a: int64 nullable, b: utf8 nullable, c: list<element: int64, nullable> nullable>, nullable; " +
		"m: type=map<utf8, int64, items_nullable>, nullable; t: type=list<element: utf8, nullable>, nullable"
	for _, tc := range []struct {
		q    string
		want []int
	}{
		{"SELECT id, l, s, m, t FROM 'tests/testdata/files/nested.parquet'", []int{1, 2, 3, 4, 5, 6}},
		{"SELECT id, l, s, m, t FROM 'tests/testdata/files/nested.parquet' WHERE id % 2 = 0", []int{2, 4, 6}},
		{"SELECT id, l, s, m, t FROM 'tests/testdata/files/nested.parquet' ORDER BY id DESC", []int{6, 5, 4, 3, 2, 1}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			r, err := db.Query(context.Background(), tc.q)
			if err != nil {
				t.Fatal(err)
			}
			rr := r.RecordReader()
			defer rr.Release()
			if got := schemaText(rr.Schema().String()); got != schema {
				t.Errorf("schema\n%s\nwant\n%s", got, schema)
			}
			var b strings.Builder
			for rr.Next() {
				if err := array.RecordToJSON(rr.RecordBatch(), &b); err != nil {
					t.Fatal(err)
				}
			}
			if err := rr.Err(); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, id := range tc.want {
				want = append(want, rows[id])
			}
			got := strings.Split(strings.TrimSpace(b.String()), "\n")
			if tc.q[len(tc.q)-1] != 'C' { // no ORDER BY: any order of row groups
				slices.Sort(got) // "id" leads each row and is one digit here
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("records\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// schemaText is an Arrow schema's fields on one line.
func schemaText(s string) string {
	lines := strings.Split(s, "\n")[2:] // after "schema:" and the field count
	for i, l := range lines {
		lines[i] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
	}
	return strings.Join(lines, "; ")
}

// TestRecordReaderNestedComputed: lists a function builds (child rows in
// the order it appended them) and a constant list.
func TestRecordReaderNestedComputed(t *testing.T) {
	db, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := db.Query(context.Background(), "SELECT id, string_split(CASE WHEN id % 2 = 0 THEN 'a,b' ELSE '' END, ',') AS x, list_value(7, NULL) AS k FROM 'tests/testdata/files/nested.parquet' ORDER BY id DESC")
	if err != nil {
		t.Fatal(err)
	}
	rr := r.RecordReader()
	defer rr.Release()
	var b strings.Builder
	for rr.Next() {
		if err := array.RecordToJSON(rr.RecordBatch(), &b); err != nil {
			t.Fatal(err)
		}
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	// string_split('', ',') is [''] in DuckDB.
	want := `{"id":6,"k":[7,null],"x":["a","b"]}
{"id":5,"k":[7,null],"x":[""]}
{"id":4,"k":[7,null],"x":["a","b"]}
{"id":3,"k":[7,null],"x":[""]}
{"id":2,"k":[7,null],"x":["a","b"]}
{"id":1,"k":[7,null],"x":[""]}`
	if got := strings.TrimSpace(b.String()); got != want {
		t.Errorf("records\n%s\nwant\n%s", got, want)
	}
}
