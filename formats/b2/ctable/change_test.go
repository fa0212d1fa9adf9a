package ctable

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// batchOf builds a batch of the given column types from rows of values.
func valuesBatch(types []columnar.Type, rows [][]columnar.Value) *columnar.Batch {
	b := columnar.NewBatch(types, len(rows))
	b.Len = len(rows)
	for k, r := range rows {
		for i, v := range r {
			b.Cols[i].SetValue(k, len(rows), v)
		}
	}
	return b
}

func vi64(n int64) columnar.Value { return columnar.IntValue(columnar.TInt64, n) }
func i32(n int64) columnar.Value  { return columnar.IntValue(columnar.TInt32, n) }
func str(s string) columnar.Value { return columnar.StringValue(s) }
func null(t columnar.Type) columnar.Value {
	return columnar.NullValue(t)
}

func rowsText(rows [][]columnar.Value) string {
	var sb strings.Builder
	for _, r := range rows {
		for i, v := range r {
			if i > 0 {
				sb.WriteByte('|')
			}
			sb.WriteString(v.String())
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func commitChange(t *testing.T, path string, del []bool, add *columnar.Batch) {
	t.Helper()
	c, err := Begin(path)
	if err != nil {
		t.Fatal(err)
	}
	if del != nil {
		if err := c.DeleteLive(del); err != nil {
			t.Fatal(err)
		}
	}
	if add != nil {
		if err := c.Append(add); err != nil {
			c.Abort()
			t.Fatal(err)
		}
	}
	if err := c.Commit(); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, path string) ([][]columnar.Value, *Table) {
	t.Helper()
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return scanAll(t, tb, index.ScanSpec{}), tb
}

// TestCreateEmptyAppendDelete builds a table from declared columns of
// every writable flavour, appends, deletes and appends again, and checks
// every value, NULL and the stored constraints.
func TestCreateEmptyAppendDelete(t *testing.T) {
	for _, ext := range []string{".b2d", ".b2z"} {
		t.Run(ext, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t"+ext)
			cols := []ColumnDef{
				{Name: "id", Type: columnar.TInt64, Rules: Rules{Bounds: []Bound{{Op: "ge", Val: vi64(0)}}}},
				{Name: "qty", Type: columnar.TInt32, Rules: Rules{Nullable: true, Bounds: []Bound{{Op: "le", Val: vi64(100)}}}},
				{Name: "name", Type: columnar.TVarchar, Rules: Rules{Nullable: true}},
				{Name: "code", Type: columnar.TVarchar, Rules: Rules{MaxLength: 6}},
				{Name: "city", Type: columnar.TVarchar, Flavour: "dictionary", Rules: Rules{Nullable: true}},
				{Name: "note", Type: columnar.TVarchar, Flavour: "vlstring", Rules: Rules{Nullable: true}},
				{Name: "price", Type: columnar.TFloat64, Rules: Rules{Nullable: true}},
			}
			if err := CreateEmpty(path, cols, CreateOptions{ChunkRows: 4, BlockRows: 2}); err != nil {
				t.Fatal(err)
			}
			rows, tb := readAll(t, path)
			if len(rows) != 0 || tb.RowCount() != 0 {
				t.Fatalf("empty table: %d rows", len(rows))
			}
			got := []string{}
			for i, r := range tb.Rules() {
				got = append(got, tb.Schema()[i].Name+":"+ruleText(r))
			}
			want := "id:notnull,ge=0 qty:le=100 name: code:notnull,max_length=6 city: note: price:"
			if strings.Join(got, " ") != want {
				t.Errorf("rules = %s, want %s", strings.Join(got, " "), want)
			}
			tb.Close()

			types := []columnar.Type{columnar.TInt64, columnar.TInt32, columnar.TVarchar, columnar.TVarchar, columnar.TVarchar, columnar.TVarchar, columnar.TFloat64}
			f := func(x float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, x) }
			first := [][]columnar.Value{
				{vi64(1), i32(10), str("alpha"), str("c1"), str("Lyon"), str("n1"), f(1.5)},
				{vi64(2), null(columnar.TInt32), null(columnar.TVarchar), str("c2"), null(columnar.TVarchar), null(columnar.TVarchar), null(columnar.TFloat64)},
				{vi64(3), i32(30), str("gamma é"), str("c3"), str("Paris"), str("n3"), f(-2)},
				{vi64(4), i32(40), str(""), str("c4"), str("Lyon"), str(""), f(0)},
				{vi64(5), i32(50), str("eps"), str("c5"), str("Nice"), str("n5"), f(5)},
			}
			commitChange(t, path, nil, valuesBatch(types, first))
			rows, _ = readAll(t, path)
			if g, w := rowsText(rows), rowsText(first); g != w {
				t.Fatalf("after the first append:\n%s\nwant\n%s", g, w)
			}
			// Delete the 2nd and 4th live rows and append two more in the
			// same change (an UPDATE does this).
			more := [][]columnar.Value{
				{vi64(6), i32(60), str("zeta"), str("c6"), str("Brest"), str("n6"), f(6)},
				{vi64(7), null(columnar.TInt32), str("eta"), str("c7"), str("Paris"), null(columnar.TVarchar), f(7)},
			}
			commitChange(t, path, []bool{false, true, false, true, false}, valuesBatch(types, more))
			rows, tb = readAll(t, path)
			want2 := rowsText([][]columnar.Value{first[0], first[2], first[4], more[0], more[1]})
			if g := rowsText(rows); g != want2 {
				t.Fatalf("after delete + append:\n%s\nwant\n%s", g, want2)
			}
			if tb.RowCount() != 5 {
				t.Errorf("RowCount = %d, want 5", tb.RowCount())
			}
			// A delete alone.
			commitChange(t, path, []bool{true, false, false, false, false}, nil)
			rows, _ = readAll(t, path)
			want3 := rowsText([][]columnar.Value{first[2], first[4], more[0], more[1]})
			if g := rowsText(rows); g != want3 {
				t.Fatalf("after delete:\n%s\nwant\n%s", g, want3)
			}
			// No debris left next to the table.
			ents, _ := os.ReadDir(filepath.Dir(path))
			if len(ents) != 1 {
				var names []string
				for _, e := range ents {
					names = append(names, e.Name())
				}
				t.Errorf("directory holds %v, want only the table", names)
			}
		})
	}
}

func ruleText(r Rules) string {
	var parts []string
	if !r.Nullable {
		parts = append(parts, "notnull")
	}
	for _, b := range r.Bounds {
		parts = append(parts, b.String())
	}
	if r.MaxLength > 0 {
		parts = append(parts, "max_length=6")
	}
	return strings.Join(parts, ",")
}

// toValues converts a readBack row to values of the table's SQL types.
func toValues(schema columnar.Schema, row []any) []columnar.Value {
	out := make([]columnar.Value, len(row))
	for c, x := range row {
		t := schema[c].Type
		switch v := x.(type) {
		case nil:
			out[c] = columnar.NullValue(t)
		case int64:
			out[c] = columnar.Value{Type: t, I: v}
		case uint64:
			out[c] = columnar.Value{Type: t, I: int64(v)}
		case float64:
			out[c] = columnar.FloatValue(t, v)
		case bool:
			out[c] = columnar.BoolValue(v)
		case string:
			out[c] = columnar.Value{Type: t, S: v}
		case []byte:
			out[c] = columnar.Value{Type: t, S: string(v)}
		}
	}
	return out
}

// TestAppendToWrittenTable appends to a table of the Writer (every
// flavour it writes, a partial last chunk), checks every value, the
// rebuilt SUMMARY index, and that a reader opened before the change still
// reads the old rows.
func TestAppendToWrittenTable(t *testing.T) {
	for _, ext := range []string{".b2d", ".b2z"} {
		t.Run(ext, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t"+ext)
			writeTable(t, path, 1000, CreateOptions{ChunkRows: 256, BlockRows: 64, SampleRows: 2000, DictMaxValues: 16})
			before, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer before.Close()
			schema := before.Schema()
			var types []columnar.Type
			for _, f := range schema {
				types = append(types, f.Type)
			}
			var add [][]columnar.Value
			for i := 1000; i < 1300; i++ {
				add = append(add, toValues(schema, readBack(i)))
			}
			commitChange(t, path, nil, valuesBatch(types, add))
			rows, tb := readAll(t, path)
			if len(rows) != 1300 || tb.RowCount() != 1300 {
				t.Fatalf("%d rows, RowCount %d, want 1300", len(rows), tb.RowCount())
			}
			for i, r := range rows {
				checkRow(t, fmt.Sprint("row ", i), r, readBack(i))
			}
			// The SUMMARY index covers the new rows: ids 1290..1295 lie in
			// block 20 (rows 1280..1299) of 21.
			p := index.Pred{Col: 0, Op: index.Between, Vals: []columnar.Value{vi64(1290), vi64(1295)}}
			var st index.ScanStats
			hits := 0
			for _, r := range scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}, Stats: &st}, "id") {
				if r[0].I >= 1290 && r[0].I <= 1295 {
					hits++
				}
			}
			if hits != 6 || st.UnitsSkipped != 20 {
				t.Fatalf("%d rows, %+v", hits, st)
			}
			// Blocks before the append keep their records (reused, not
			// recomputed): ids 100..110 lie in block 1 only.
			p1 := index.Pred{Col: 0, Op: index.Between, Vals: []columnar.Value{vi64(100), vi64(110)}}
			var st1 index.ScanStats
			scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p1}, Stats: &st1}, "id")
			if st1.UnitsSkipped != 20 {
				t.Fatalf("early block: %+v", st1)
			}
			// The reader opened before still sees exactly the old table.
			old := scanAll(t, before, index.ScanSpec{Threads: 1})
			if len(old) != 1000 {
				t.Fatalf("old reader: %d rows", len(old))
			}
			for i, r := range old {
				checkRow(t, fmt.Sprint("old row ", i), r, readBack(i))
			}
		})
	}
}

// TestChangePythonTable deletes from the python-written fixture (the
// FULL index stays valid, visibility_epoch is bumped) and appends to its
// columns of every flavour.
func TestChangePythonTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ctable_mixed.b2d")
	if err := os.CopyFS(path, os.DirFS("testdata/ctable_mixed.b2d")); err != nil {
		t.Fatal(err)
	}
	// Live rows are physical 0..998 but 3, 4, 500: delete ids 0 and 10.
	del := make([]bool, 996)
	del[0], del[8] = true, true
	commitChange(t, path, del, nil)
	rows, tb := readAll(t, path)
	if len(rows) != 994 || tb.RowCount() != 994 {
		t.Fatalf("%d rows, RowCount %d, want 994", len(rows), tb.RowCount())
	}
	id := tb.Schema().Index("id")
	for _, r := range rows {
		if r[id].I == 0 || r[id].I == 10 || r[id].I == 3 {
			t.Fatalf("deleted id %d still listed", r[id].I)
		}
	}
	meta := map[string]string{}
	for _, e := range tb.Metadata() {
		meta[e.Scope+"/"+e.Key] = e.Value
	}
	if meta["manifest/visibility_epoch"] != "2" || meta["manifest/value_epoch"] != "1" || meta["table/owner"] != `"fixture"` {
		t.Errorf("manifest after delete: %v", meta)
	}
	if !strings.Contains(meta["manifest/index_catalog"], `"stale": false`) && !strings.Contains(meta["manifest/index_catalog"], "stale: false") {
		t.Errorf("delete staled an index: %s", meta["manifest/index_catalog"])
	}
	// Append one row to every flavour of the python table: a new
	// dictionary value, NULLs by mask (opt), by sentinel (sent) and by
	// msgpack nil (note); varlen columns hold a dead item past
	// _valid_rows that the append overwrites.
	schema := tb.Schema()
	var types []columnar.Type
	for _, f := range schema {
		types = append(types, f.Type)
	}
	f64 := func(x float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, x) }
	row := []columnar.Value{vi64(2000), {Type: columnar.TInt8, I: -5}, {Type: columnar.TUint16, I: 7},
		columnar.FloatValue(columnar.TFloat32, 1.5), f64(50), columnar.BoolValue(true), f64(3), f64(-4),
		str("new"), {Type: columnar.TBlob, S: "ab"}, str("héllo"), str("Rome"), null(columnar.TVarchar),
		{Type: columnar.TBlob, S: "\x01\x02"}, null(columnar.TInt32), null(columnar.TFloat64)}
	if len(row) != len(schema) {
		t.Fatalf("schema %v", schema)
	}
	commitChange(t, path, nil, valuesBatch(types, [][]columnar.Value{row}))
	rows, tb = readAll(t, path)
	if len(rows) != 995 {
		t.Fatalf("%d rows after the append, want 995", len(rows))
	}
	if g, w := rowsText(rows[len(rows)-1:]), rowsText([][]columnar.Value{row}); g != w {
		t.Errorf("appended row:\n%s\nwant\n%s", g, w)
	}
	// Row id 1 as the fixtures README gives it.
	one := []columnar.Value{vi64(1), {Type: columnar.TInt8, I: -127}, {Type: columnar.TUint16, I: 7},
		columnar.FloatValue(columnar.TFloat32, 0.5), f64(0.1), columnar.BoolValue(false), f64(1), f64(-1),
		str("c00001"), {Type: columnar.TBlob, S: "\x01\x02AB"}, str("ét1"), str("Paris"), str("note 1"),
		{Type: columnar.TBlob, S: "\x00"}, i32(3), f64(0.25)}
	if g, w := rowsText(rows[0:1]), rowsText([][]columnar.Value{one}); g != w {
		t.Errorf("row id 1:\n%s\nwant\n%s", g, w)
	}
	meta = map[string]string{}
	for _, e := range tb.Metadata() {
		meta[e.Scope+"/"+e.Key] = e.Value
	}
	if meta["manifest/value_epoch"] != "2" {
		t.Errorf("value_epoch after append: %s", meta["manifest/value_epoch"])
	}
	// The FULL index on score went stale (it does not cover the new row):
	// a filtered scan must still find it.
	sc := schema.Index("score")
	p := index.Pred{Col: sc, Op: index.Eq, Vals: []columnar.Value{f64(50)}}
	found := false
	for _, r := range scanAll(t, tb, index.ScanSpec{Filter: []index.Pred{p}}, "id", "score") {
		found = found || r[0].I == 2000 && r[1].F == 50
	}
	if !found {
		t.Errorf("score = 50 misses the appended row (stale index used?)")
	}
}

// TestCreateEmptySchemaLikePython declares the columns of the python
// fixture ctable_mixed that b2sql can declare and requires each schema
// object to be, byte for byte, the one python-blosc2 wrote (fixtures
// README §5.1).
func TestCreateEmptySchemaLikePython(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.b2d")
	le := func(op string, v int64) Bound { return Bound{Op: op, Val: vi64(v)} }
	cols := []ColumnDef{
		{Name: "id", Type: columnar.TInt64, Rules: Rules{Bounds: []Bound{le("ge", 0)}}},
		{Name: "i8", Type: columnar.TInt8},
		{Name: "score", Type: columnar.TFloat64, Rules: Rules{Bounds: []Bound{le("ge", 0), le("le", 100)}}},
		{Name: "flag", Type: columnar.TBool},
		{Name: "code", Type: columnar.TVarchar, Rules: Rules{MaxLength: 6}},
		{Name: "raw", Type: columnar.TBlob, Flavour: "bytes", Rules: Rules{MaxLength: 4}},
		{Name: "text", Type: columnar.TVarchar},
		{Name: "city", Type: columnar.TVarchar, Flavour: "dictionary", Rules: Rules{Nullable: true}},
		{Name: "note", Type: columnar.TVarchar, Flavour: "vlstring", Rules: Rules{Nullable: true}},
		{Name: "blob", Type: columnar.TBlob},
		{Name: "opt", Type: columnar.TInt32, Rules: Rules{Nullable: true}},
	}
	if err := CreateEmpty(path, cols, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	schemaOf := func(p string) string {
		f, err := b2.Open(filepath.Join(p, "_meta.b2f"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		v, err := f.VLMetaValue("schema")
		if err != nil {
			t.Fatal(err)
		}
		s, _ := v.(string)
		return s
	}
	ours, python := schemaOf(path), schemaOf("testdata/ctable_mixed.b2d")
	for _, c := range cols {
		obj := func(js string) string {
			i := strings.Index(js, `{"name": "`+c.Name+`"`)
			if i < 0 {
				return ""
			}
			depth := 0
			for j := i; j < len(js); j++ {
				switch js[j] {
				case '{':
					depth++
				case '}':
					depth--
					if depth == 0 {
						return js[i : j+1]
					}
				}
			}
			return ""
		}
		if o, p := obj(ours), obj(python); o == "" || o != p {
			t.Errorf("column %s:\n ours   %s\n python %s", c.Name, o, p)
		}
	}
	if !strings.HasPrefix(ours, `{"version": 3, "columns": [`) {
		t.Errorf("schema starts %.40s", ours)
	}
}
