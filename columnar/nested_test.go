package columnar

import "testing"

func listOf(t Type, xs ...Value) Value { return Value{Type: ListOf(t), Elems: xs} }

// TestNestedTypeNames: type spellings as DuckDB 1.5 prints them (typeof).
func TestNestedTypeNames(t *testing.T) {
	for _, tc := range []struct {
		typ  Type
		want string
	}{
		{ListOf(TInt32), "INTEGER[]"},
		{ListOf(ListOf(TInt32)), "INTEGER[][]"},
		{StructOf(Field{Name: "a", Type: TInt32}, Field{Name: "B c", Type: TVarchar}), `STRUCT(a INTEGER, "B c" VARCHAR)`},
		{StructOf(Field{Name: "select", Type: TInt32}), `STRUCT("select" INTEGER)`},
		{StructOf(Field{Name: "A", Type: TInt32}), `STRUCT(A INTEGER)`},
		{MapOf(TVarchar, ListOf(TInt32)), "MAP(VARCHAR, INTEGER[])"},
	} {
		if got := tc.typ.String(); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
	if ListOf(TInt64) != ListOf(TInt64) || ListOf(TInt64) == ListOf(TInt32) {
		t.Fatal("nested types must compare by structure")
	}
}

// TestNestedText: CAST(… AS VARCHAR) answers of DuckDB 1.5.6.
func TestNestedText(t *testing.T) {
	s := func(x string) Value { return StringValue(x) }
	st := StructOf(Field{Name: "a", Type: TInt32}, Field{Name: "B c", Type: TVarchar}, Field{Name: "n", Type: TInt32})
	mt := MapOf(TVarchar, TInt32)
	entry := func(k string, v Value) Value { return Value{Type: mt.Elem(), Elems: []Value{s(k), v}} }
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{listOf(TInt32, IntValue(TInt32, 1), IntValue(TInt32, 2), NullValue(TInt32)), "[1, 2, NULL]"},
		{listOf(TVarchar, s("a"), s("b c"), NullValue(TVarchar), s("")), "[a, b c, NULL, '']"},
		{listOf(TVarchar, s(" a"), s("NULL"), s("null"), s(`a\b`), s("a=b"), s("a:b"), s("a{b"), s(`a"b`), s("a(b"), s("é")),
			`[' a', 'NULL', 'null', a\b, 'a=b', 'a:b', 'a{b', 'a"b', 'a(b', é]`},
		{listOf(TVarchar, s("it's"), s("[x]"), s("a,b")), `['it\'s', '[x]', 'a,b']`},
		{Value{Type: st, Elems: []Value{IntValue(TInt32, 1), s("x"), NullValue(TInt32)}}, "{'a': 1, 'B c': x, 'n': NULL}"},
		{Value{Type: mt, Elems: []Value{entry("k", IntValue(TInt32, 1)), entry("z", NullValue(TInt32))}}, "{k=1, z=NULL}"},
		{listOf(ListOf(TInt32), listOf(TInt32)), "[[]]"},
		{listOf(TFloat64, FloatValue(TFloat64, 1.5), FloatValue(TFloat64, 1e20)), "[1.5, 1e+20]"},
		{listOf(TTimestamp, IntValue(TTimestamp, 1577872800*MicrosPerSecond), NullValue(TTimestamp)), "['2020-01-01 10:00:00', NULL]"},
		{listOf(TTime, IntValue(TTime, 36000*MicrosPerSecond)), "['10:00:00']"},
		{listOf(TDate, IntValue(TDate, 18262)), "[2020-01-01]"},
		{listOf(TBlob, Value{Type: TBlob, S: "a b"}, Value{Type: TBlob, S: " x"}), "[a b, ' x']"},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
}

// TestNestedVector: values survive SetValue, CopyRow in any row order,
// Gather, Flatten and Reset at every depth, NULLs included.
func TestNestedVector(t *testing.T) {
	inner := ListOf(TInt64)
	st := StructOf(Field{Name: "l", Type: inner}, Field{Name: "s", Type: TVarchar})
	typ := ListOf(st)
	i := func(x int64) Value { return IntValue(TInt64, x) }
	row := func(l Value, s Value) Value { return Value{Type: st, Elems: []Value{l, s}} }
	vals := []Value{
		{Type: typ, Elems: []Value{row(listOf(TInt64, i(1), i(2)), StringValue("a")), NullValue(st)}},
		NullValue(typ),
		{Type: typ, Elems: []Value{}},
		{Type: typ, Elems: []Value{row(NullValue(inner), NullValue(TVarchar)), row(listOf(TInt64, NullValue(TInt64)), StringValue(""))}},
	}
	want := []string{"[{'l': [1, 2], 's': a}, NULL]", "NULL", "[]", "[{'l': NULL, 's': NULL}, {'l': [NULL], 's': ''}]"}
	check := func(what string, v *Vector, order []int) {
		t.Helper()
		for k, r := range order {
			if got := v.Value(k).String(); got != want[r] {
				t.Errorf("%s row %d: got %s, want %s", what, k, got, want[r])
			}
		}
	}
	v := NewVector(typ, len(vals))
	for k := len(vals) - 1; k >= 0; k-- { // out of order on purpose
		v.SetValue(k, len(vals), vals[k])
	}
	check("SetValue", v, []int{0, 1, 2, 3})
	c := NewVector(typ, 4)
	for _, k := range []int{2, 0, 3, 1} {
		c.CopyRow(k, v, k, 4)
	}
	check("CopyRow", c, []int{0, 1, 2, 3})
	g := NewVector(typ, 0)
	g.Gather(v, []int32{3, 3, 1, 0, 2})
	check("Gather", g, []int{3, 3, 1, 0, 2})
	g.Gather(v, []int32{0})
	check("Gather again", g, []int{0})
	k := ConstVector(vals[3])
	k.Flatten(3)
	check("Flatten", k, []int{3, 3, 3})
	if Compare(vals[0], vals[3]) >= 0 || Compare(vals[2], vals[0]) >= 0 {
		t.Error("nested order")
	}
}
