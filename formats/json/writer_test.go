package json

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestWriter checks the text against DuckDB 1.5's COPY (SELECT 1 AS a,
// 'x,y' AS b, ” AS c, NULL AS d, …) TO 'o.json' and (ARRAY true).
func TestWriter(t *testing.T) {
	schema := columnar.Schema{
		{Name: "a", Type: columnar.TInt64}, {Name: "b", Type: columnar.TVarchar}, {Name: "c", Type: columnar.TVarchar},
		{Name: "d", Type: columnar.TInt32}, {Name: "e", Type: columnar.TVarchar}, {Name: "f", Type: columnar.TFloat64},
		{Name: "g", Type: columnar.TDate}, {Name: "h", Type: columnar.TTimestamp}, {Name: "i", Type: columnar.TBool},
		{Name: "j", Type: columnar.TFloat64}, {Name: "k", Type: columnar.TVarchar}, {Name: "m", Type: columnar.DecimalType(5, 2)},
		{Name: "n", Type: columnar.TVarchar},
	}
	types := make([]columnar.Type, len(schema))
	for i, f := range schema {
		types[i] = f.Type
	}
	b := columnar.NewBatch(types, 1)
	b.Len = 1
	vals := []columnar.Value{
		columnar.IntValue(columnar.TInt64, 1), columnar.StringValue("x,y"), columnar.StringValue(""), columnar.NullValue(columnar.TInt32),
		columnar.StringValue(`q"q`), columnar.FloatValue(columnar.TFloat64, 1.5), columnar.IntValue(columnar.TDate, 19727),
		columnar.IntValue(columnar.TTimestamp, 1704448800500000), columnar.BoolValue(true), columnar.FloatValue(columnar.TFloat64, 1e20),
		columnar.StringValue("line\ntwo"), columnar.IntValue(columnar.DecimalType(5, 2), 250), columnar.StringValue(`é\t</`),
	}
	for j, v := range vals {
		b.Cols[j].SetValue(0, 1, v)
	}
	p := filepath.Join(t.TempDir(), "o.json")
	w, err := NewWriter(p, schema, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := `{"a":1,"b":"x,y","c":"","d":null,"e":"q\"q","f":1.5,"g":"2024-01-05","h":"2024-01-05 10:00:00.5","i":true,"j":100000000000000000000.0,"k":"line\ntwo","m":2.5,"n":"é\\t</"}` + "\n"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}

	one := columnar.Schema{{Name: "a", Type: columnar.TInt64}}
	b = columnar.NewBatch([]columnar.Type{columnar.TInt64}, 2)
	b.Len = 2
	b.Cols[0].Ints[0], b.Cols[0].Ints[1] = 1, 2
	p = filepath.Join(t.TempDir(), "o2.json.gz")
	w, err = NewWriter(p, one, WriterOptions{Array: true})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tb, err := Open([]string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := readAll(t, tb)
	if err != nil || len(rows) != 2 || rows[0] != "1" || rows[1] != "2" || tb.Format() != "array" {
		t.Fatalf("round trip: %q %v %s", rows, err, tb.Format())
	}
}

// TestWriterWideDecimal: DuckDB 1.5 writes a DECIMAL of up to 15 digits as
// a double and a wider one in its exact digits (COPY (SELECT
// 1.10::DECIMAL(15,2) AS a, 1.10::DECIMAL(16,2) AS b, 100::DECIMAL(16,0)
// AS c) TO 'o.json').
func TestWriterWideDecimal(t *testing.T) {
	schema := columnar.Schema{
		{Name: "a", Type: columnar.DecimalType(15, 2)}, {Name: "b", Type: columnar.DecimalType(16, 2)},
		{Name: "c", Type: columnar.DecimalType(16, 0)},
	}
	b := columnar.NewBatch([]columnar.Type{schema[0].Type, schema[1].Type, schema[2].Type}, 1)
	b.Len = 1
	b.Cols[0].Ints[0], b.Cols[1].Ints[0], b.Cols[2].Ints[0] = 110, 110, 100
	p := filepath.Join(t.TempDir(), "o.json")
	w, err := NewWriter(p, schema, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if want := `{"a":1.1,"b":1.10,"c":100}` + "\n"; string(got) != want {
		t.Fatalf("got %s want %s", got, want)
	}
}
