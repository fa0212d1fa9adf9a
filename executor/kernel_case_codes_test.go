package executor

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// TestCaseCodes: a CASE of string constants comes out coded, with the same
// strings in Bytes, repeated values sharing a code, NULL where no arm holds
// and no ELSE is given, and rows outside the selection untouched.
func TestCaseCodes(t *testing.T) {
	str := func(s string) Expr { return ConstExpr(columnar.Value{Type: columnar.TVarchar, S: s}) }
	x := ColumnExpr(0, columnar.TBool)
	y := ColumnExpr(1, columnar.TBool)
	e := NewCase([]Expr{x, y}, []Expr{str("p"), str("q")}, nil, columnar.TVarchar).(*caseExpr)
	if e.codes == nil {
		t.Fatal("constant branches not planned as codes")
	}
	xs := columnar.NewVector(columnar.TBool, 6)
	ys := columnar.NewVector(columnar.TBool, 6)
	copy(xs.Bools, []bool{true, false, false, true, false, false})
	copy(ys.Bools, []bool{false, true, false, true, false, true})
	ys.SetNull(5, 6)
	b := &columnar.Batch{Cols: []*columnar.Vector{xs, ys}, Len: 6, Sel: []int{0, 1, 2, 3, 5}}
	out, err := e.Eval(b)
	if err != nil {
		t.Fatal(err)
	}
	d, codes, ok := dict.Of(out)
	if !ok {
		t.Fatal("output not coded")
	}
	want := map[int]string{0: "p", 1: "q", 3: "p"}
	for _, i := range b.Sel {
		w, hit := want[i]
		if !hit {
			if !out.IsNull(i) {
				t.Errorf("row %d: %q, want NULL", i, out.Bytes[i])
			}
			continue
		}
		if out.IsNull(i) || string(out.Bytes[i]) != w || string(d.Value(codes[i])) != w {
			t.Errorf("row %d: bytes %q code %d (%q), want %q", i, out.Bytes[i], codes[i], d.Value(codes[i]), w)
		}
	}
	// Repeated values share a code; a non-constant branch is not coded.
	e2 := NewCase([]Expr{x, y}, []Expr{str("a"), str("a")}, str("b"), columnar.TVarchar).(*caseExpr)
	if e2.codes == nil || e2.codes.d.Len() != 2 || e2.codes.arm[0] != e2.codes.arm[1] {
		t.Errorf("repeated constants: %+v", e2.codes)
	}
	if e3 := NewCase([]Expr{x}, []Expr{ColumnExpr(2, columnar.TVarchar)}, str("b"), columnar.TVarchar).(*caseExpr); e3.codes != nil {
		t.Error("a column branch was planned as codes")
	}
}
