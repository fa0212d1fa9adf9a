package columnar

import "testing"

// TestCompareRows: CompareRows orders vector rows as Compare orders their
// Values (by hand: a NULL element after every value, a prefix first), and
// View and CopyRowOwned keep the rows' values.
func TestCompareRows(t *testing.T) {
	lt := ListOf(TInt64)
	st := StructOf(Field{Name: "l", Type: lt}, Field{Name: "s", Type: TVarchar})
	i := func(x int64) Value { return IntValue(TInt64, x) }
	l := func(xs ...Value) Value { return Value{Type: lt, Elems: xs} }
	s := func(lv Value, str string) Value { return Value{Type: st, Elems: []Value{lv, StringValue(str)}} }
	// In increasing order.
	vals := []Value{
		s(l(), "a"),
		s(l(i(1)), "a"),
		s(l(i(1)), "b"),
		s(l(i(1), i(2)), "a"),
		s(l(i(1), NullValue(TInt64)), "a"),
		s(l(i(2)), "a"),
		s(NullValue(lt), "a"),
	}
	v := NewVector(st, len(vals))
	for k, x := range vals {
		v.SetValue(k, len(vals), x)
	}
	for a := range vals {
		for b := range vals {
			want := 0
			switch {
			case a < b:
				want = -1
			case a > b:
				want = 1
			}
			if got := CompareRows(v, a, v, b); sign(got) != want {
				t.Errorf("CompareRows(%s, %s) = %d, want %d", vals[a], vals[b], got, want)
			}
			if got := Compare(vals[a], vals[b]); sign(got) != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", vals[a], vals[b], got, want)
			}
		}
	}
	view := v.View(0, 3)
	owned := NewVector(st, 1)
	owned.CopyRowOwned(0, v, 3, 1)
	if view.Value(2).String() != vals[2].String() || owned.Value(0).String() != vals[3].String() {
		t.Errorf("View row 2 %s, owned copy %s; want %s, %s", view.Value(2), owned.Value(0), vals[2], vals[3])
	}
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}
