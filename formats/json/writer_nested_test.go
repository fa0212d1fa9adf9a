package json

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestWriterNested checks nested values against DuckDB 1.5.6's COPY
// (SELECT [1.5::DOUBLE, 1e20::DOUBLE, 'NaN'::DOUBLE, NULL] AS l, {'d': DATE
// '2024-01-05', 's': 'q"q', 'b': true, 'm': 2.50::DECIMAL(5,2)} AS s, MAP
// {1: 'a'} AS m, [[1],[]] AS ll) TO 'e.json': arrays and objects.
func TestWriterNested(t *testing.T) {
	f := columnar.TFloat64
	lt := columnar.ListOf(f)
	st := columnar.StructOf(columnar.Field{Name: "d", Type: columnar.TDate}, columnar.Field{Name: "s", Type: columnar.TVarchar},
		columnar.Field{Name: "b", Type: columnar.TBool}, columnar.Field{Name: "m", Type: columnar.DecimalType(5, 2)})
	mt := columnar.MapOf(columnar.TInt32, columnar.TVarchar)
	llt := columnar.ListOf(columnar.ListOf(columnar.TInt32))
	schema := columnar.Schema{{Name: "l", Type: lt}, {Name: "s", Type: st}, {Name: "m", Type: mt}, {Name: "ll", Type: llt}}
	b := columnar.NewBatch([]columnar.Type{lt, st, mt, llt}, 1)
	b.Len = 1
	one := columnar.IntValue(columnar.TInt32, 1)
	vals := []columnar.Value{
		{Type: lt, Elems: []columnar.Value{columnar.FloatValue(f, 1.5), columnar.FloatValue(f, 1e20), columnar.FloatValue(f, nan()), columnar.NullValue(f)}},
		{Type: st, Elems: []columnar.Value{columnar.IntValue(columnar.TDate, 19727), columnar.StringValue(`q"q`), columnar.BoolValue(true), columnar.IntValue(columnar.DecimalType(5, 2), 250)}},
		{Type: mt, Elems: []columnar.Value{{Type: mt.Elem(), Elems: []columnar.Value{one, columnar.StringValue("a")}}}},
		{Type: llt, Elems: []columnar.Value{{Type: llt.Elem(), Elems: []columnar.Value{one}}, {Type: llt.Elem(), Elems: []columnar.Value{}}}},
	}
	for j, v := range vals {
		b.Cols[j].SetValue(0, 1, v)
	}
	p := filepath.Join(t.TempDir(), "e.json")
	w, err := NewWriter(p, schema, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := `{"l":[1.5,100000000000000000000.0,NaN,null],"s":{"d":"2024-01-05","s":"q\"q","b":true,"m":2.5},"m":{"1":"a"},"ll":[[1],[]]}` + "\n"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func nan() float64 { z := 0.0; return z / z }
