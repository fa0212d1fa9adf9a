package executor

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestStructExtractNullStruct: the field of a NULL struct row is NULL even
// when the child row under it holds a value (a NULL row's children are
// garbage, as any NULL slot).
func TestStructExtractNullStruct(t *testing.T) {
	st := columnar.StructOf(columnar.Field{Name: "a", Type: columnar.TInt64}, columnar.Field{Name: "b", Type: columnar.TVarchar})
	const n = 70 // two bitmap words
	v := columnar.NewVector(st, n)
	vals := make([]columnar.Value, n)
	for i := range n {
		vals[i] = columnar.Value{Type: st, Elems: []columnar.Value{columnar.IntValue(columnar.TInt64, int64(i)), columnar.NullValue(columnar.TVarchar)}}
		if i%3 == 1 {
			vals[i] = columnar.NullValue(st)
		}
		v.SetValue(i, n, vals[i])
	}
	// Poison the children under the NULL rows: a value, marked present.
	for i := 1; i < n; i += 3 {
		v.Kids[0].Ints[i] = 99
		if v.Kids[0].Valid != nil {
			v.Kids[0].Valid.Set(i)
		}
	}
	b := &columnar.Batch{Cols: []*columnar.Vector{v}, Len: n}
	for field, name := range []string{"a", "b"} {
		e, err := NewCall("struct_extract", []Expr{ColumnExpr(0, st), ConstExpr(columnar.IntValue(columnar.TInt64, int64(field)))}, st.Fields()[field].Type)
		if err != nil {
			t.Fatal(err)
		}
		out, err := e.Eval(b)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			got := out.Value(i)
			switch {
			case i%3 == 1 || field == 1:
				if !got.Null {
					t.Errorf("%s row %d: got %v, want NULL", name, i, got)
				}
			case got.Null || got.I != int64(i):
				t.Errorf("%s row %d: got %v, want %d", name, i, got, i)
			}
		}
		if field == 0 && v.Kids[0].Valid != nil && !v.Kids[0].Valid.Get(1) {
			t.Errorf("the input's child validity was changed")
		}
	}
}
