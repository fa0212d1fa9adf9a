package arrowrec

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql/columnar"
)

// TestNestedShared converts a LIST<BIGINT> and a STRUCT(a DOUBLE) column:
// without a selection the record's element and field payloads are the
// vectors' own memory, with one they are copies of the selected rows;
// the values are checked either way.
func TestNestedShared(t *testing.T) {
	lt := columnar.ListOf(columnar.TInt64)
	st := columnar.StructOf(columnar.Field{Name: "a", Type: columnar.TFloat64})
	b := columnar.NewBatch([]columnar.Type{lt, st}, 3)
	b.Len = 3
	lists := []columnar.Value{
		{Type: lt, Elems: []columnar.Value{columnar.IntValue(columnar.TInt64, 1), columnar.IntValue(columnar.TInt64, 2)}},
		columnar.NullValue(lt),
		{Type: lt, Elems: []columnar.Value{columnar.IntValue(columnar.TInt64, 3)}},
	}
	for r, l := range lists {
		b.Cols[0].SetValue(r, 3, l)
		b.Cols[1].SetValue(r, 3, columnar.Value{Type: st, Elems: []columnar.Value{columnar.FloatValue(columnar.TFloat64, float64(r)/2)}})
	}
	types := []columnar.Type{lt, st}
	schema := arrow.NewSchema([]arrow.Field{{Name: "l", Type: Type(lt), Nullable: true}, {Name: "s", Type: Type(st), Nullable: true}}, nil)
	for _, tc := range []struct {
		sel    []int
		shared bool
		lists  string
		as     []float64
	}{
		{nil, true, "[[1 2] (null) [3]]", []float64{0, 0.5, 1}},
		{[]int{2, 0}, false, "[[3] [1 2]]", []float64{1, 0}},
	} {
		b.Sel = tc.sel
		rec, err := Record(schema, types, b)
		if err != nil {
			t.Fatal(err)
		}
		l := rec.Column(0).(*array.List)
		elems := l.ListValues().(*array.Int64).Int64Values()
		s := rec.Column(1).(*array.Struct).Field(0).(*array.Float64).Float64Values()
		if got := l.String(); got != tc.lists {
			t.Errorf("sel %v: lists %s, want %s", tc.sel, got, tc.lists)
		}
		for i, x := range tc.as {
			if s[i] != x {
				t.Errorf("sel %v: s.a[%d] = %v, want %v", tc.sel, i, s[i], x)
			}
		}
		sameL := unsafe.SliceData(elems) == unsafe.SliceData(b.Cols[0].Kids[0].Ints)
		sameS := unsafe.SliceData(s) == unsafe.SliceData(b.Cols[1].Kids[0].Floats)
		if sameL != tc.shared || sameS != tc.shared {
			t.Errorf("sel %v: elements shared %v, fields shared %v, want %v", tc.sel, sameL, sameS, tc.shared)
		}
		rec.Release()
	}
}
