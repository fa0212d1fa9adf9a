package csv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// testBatch is one row of every kind DuckDB's COPY TO csv was asked to
// write, and a row of NULLs.
func testBatch() (columnar.Schema, *columnar.Batch) {
	schema := columnar.Schema{
		{Name: "a", Type: columnar.TInt64}, {Name: "b", Type: columnar.TVarchar}, {Name: "c", Type: columnar.TVarchar},
		{Name: "e", Type: columnar.TVarchar}, {Name: "f", Type: columnar.TFloat64}, {Name: "g", Type: columnar.TDate},
		{Name: "h", Type: columnar.TTimestamp}, {Name: "i", Type: columnar.TBool}, {Name: "j", Type: columnar.TFloat64},
		{Name: "k", Type: columnar.TVarchar}, {Name: "m", Type: columnar.DecimalType(5, 2)}, {Name: "n", Type: columnar.TTime},
	}
	types := make([]columnar.Type, len(schema))
	for i, f := range schema {
		types[i] = f.Type
	}
	b := columnar.NewBatch(types, 2)
	b.Len = 2
	vals := []columnar.Value{
		columnar.IntValue(columnar.TInt64, 1), columnar.StringValue("x,y"), columnar.StringValue(""), columnar.StringValue(`q"q`),
		columnar.FloatValue(columnar.TFloat64, 1.5), columnar.IntValue(columnar.TDate, 19727),
		columnar.IntValue(columnar.TTimestamp, 1704448800500000), columnar.BoolValue(true), columnar.FloatValue(columnar.TFloat64, 1e20),
		columnar.StringValue("line\ntwo"), columnar.IntValue(columnar.DecimalType(5, 2), 250), columnar.IntValue(columnar.TTime, 12*3600e6),
	}
	for j, v := range vals {
		b.Cols[j].SetValue(0, 2, v)
		b.Cols[j].SetNull(1, 2)
	}
	return schema, b
}

// TestWriter checks the text against DuckDB 1.5's COPY (SELECT 1 AS a,
// 'x,y' AS b, ” AS c, …) TO 'o.csv'.
func TestWriter(t *testing.T) {
	schema, b := testBatch()
	p := filepath.Join(t.TempDir(), "o.csv")
	w, err := NewWriter(p, schema, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := "a,b,c,e,f,g,h,i,j,k,m,n\n" +
		"1,\"x,y\",\"\",\"q\"\"q\",1.5,2024-01-05,2024-01-05 10:00:00.5,true,1e+20,\"line\ntwo\",2.50,12:00:00\n" +
		",,,,,,,,,,,\n"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Round trip through the reader, compressed.
	for _, name := range []string{"o.csv.gz", "o.csv.zst"} {
		p := filepath.Join(t.TempDir(), name)
		w, err := NewWriter(p, schema, WriterOptions{Delim: Some(byte(';')), NullStr: `\N`})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		tb, err := Open([]string{p}, Options{NullStr: []string{`\N`}})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := readAll(t, tb)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || rows[0] != "1|x,y||q\"q|1.5|2024-01-05|2024-01-05 10:00:00.5|true|1e+20|line\ntwo|2.5|12:00:00" {
			t.Fatalf("%s: %q (schema %s)", name, rows, schemaText(tb.Schema()))
		}
	}
}

func TestWriterAbort(t *testing.T) {
	schema, _ := testBatch()
	dir := t.TempDir()
	w, err := NewWriter(filepath.Join(dir, "o.csv"), schema, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left %v", ents)
	}
}
