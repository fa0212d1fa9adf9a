package ctable

import (
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestSchemaDefaults: a column's constant default is written as the
// schema's "default" key and read back from it, with its JSON kind
// (python-blosc2 keeps defaults there and fills omitted columns with them).
func TestSchemaDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.b2d")
	val := func(v columnar.Value) *columnar.Value { return &v }
	cols := []ColumnDef{
		{Name: "i", Type: columnar.TInt32, Rules: Rules{Default: val(columnar.IntValue(columnar.TInt32, -3))}},
		{Name: "u", Type: columnar.TUint64, Rules: Rules{Default: val(columnar.UintValue(1 << 63))}},
		{Name: "f", Type: columnar.TFloat64, Rules: Rules{Default: val(columnar.FloatValue(columnar.TFloat64, 1.5))}},
		{Name: "b", Type: columnar.TBool, Rules: Rules{Default: val(columnar.BoolValue(true))}},
		{Name: "s", Type: columnar.TVarchar, Flavour: "vlstring", Rules: Rules{Default: val(columnar.StringValue(`a "b"`))}},
		{Name: "n", Type: columnar.TInt64},
	}
	if err := CreateEmpty(path, cols, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	want := []*columnar.Value{
		val(columnar.IntValue(columnar.TInt64, -3)),
		val(columnar.UintValue(1 << 63)),
		val(columnar.FloatValue(columnar.TFloat64, 1.5)),
		val(columnar.BoolValue(true)),
		val(columnar.StringValue(`a "b"`)),
		nil,
	}
	for i, r := range tb.Rules() {
		got, w := r.Default, want[i]
		switch {
		case got == nil || w == nil:
			if got != w {
				t.Errorf("column %s: default %v, want %v", cols[i].Name, got, w)
			}
		case got.Type != w.Type || got.I != w.I || got.F != w.F || got.S != w.S:
			t.Errorf("column %s: default %+v, want %+v", cols[i].Name, *got, *w)
		}
	}
}
