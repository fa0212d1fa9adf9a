package executor

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestCastStructByName: STRUCT to STRUCT casts match fields by name, any
// case; a target field the value lacks is NULL; no name in common fails.
func TestCastStructByName(t *testing.T) {
	i32 := columnar.TInt32
	from := columnar.StructOf(columnar.Field{Name: "B", Type: i32}, columnar.Field{Name: "x", Type: i32})
	v := columnar.Value{Type: from, Elems: []columnar.Value{columnar.IntValue(i32, 84), columnar.IntValue(i32, 7)}}
	to := columnar.StructOf(columnar.Field{Name: "a", Type: columnar.TInt64}, columnar.Field{Name: "b", Type: columnar.TInt64})
	got, err := CastValue(v, to)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Elems[0].Null || got.Elems[1].I != 84 || got.Elems[1].Type != columnar.TInt64 {
		t.Errorf("got %v, want {'a': NULL, 'b': 84}", got)
	}
	if _, err := CastValue(v, columnar.StructOf(columnar.Field{Name: "a", Type: i32})); err == nil {
		t.Error("a cast with no field in common succeeded")
	}
}
