package function

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func TestSignatureAndArity(t *testing.T) {
	v := columnar.TVarchar
	tests := []struct {
		name       string
		set        Set
		sig, arity string
	}{
		{"one", Set{Name: "lower", Overloads: []Overload{{Params: []string{"string"}, Args: []Arg{Varchar}, Returns: v}}},
			"lower(string VARCHAR) → VARCHAR", "1"},
		{"optional trailing", Set{Name: "substring", Overloads: []Overload{
			{Params: []string{"string", "start"}, Args: []Arg{Varchar, Integer}, Returns: v},
			{Params: []string{"string", "start", "length"}, Args: []Arg{Varchar, Integer, Integer}, Returns: v}}},
			"substring(string VARCHAR, start BIGINT[, length BIGINT]) → VARCHAR", "2 or 3"},
		{"variadic", Set{Name: "concat", Overloads: []Overload{{Params: []string{"value"}, Args: []Arg{Text}, Variadic: true, Returns: v}}},
			"concat(value ANY, …) → VARCHAR", "1 or more"},
		{"range", Set{Name: "f", Overloads: []Overload{{Args: []Arg{Number}, SameAs: 1}, {Args: []Arg{Number, Number}, SameAs: 1}, {Args: []Arg{Number, Number, Number}, SameAs: 1}}},
			"f(NUMERIC[, NUMERIC[, NUMERIC]]) → NUMERIC", "1 to 3"},
		{"different overloads", Set{Name: "g", Overloads: []Overload{{Args: []Arg{Varchar}, Returns: v}, {Args: []Arg{Double, Double}, Returns: columnar.TFloat64}}},
			"g(VARCHAR) → VARCHAR", "1 or 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.set.Signature(); got != tc.sig {
				t.Errorf("Signature() = %q, want %q", got, tc.sig)
			}
			if got := tc.set.Arity(); got != tc.arity {
				t.Errorf("Arity() = %q, want %q", got, tc.arity)
			}
		})
	}
}

func TestOverloadTakes(t *testing.T) {
	o := Overload{Args: []Arg{Str, Text}, Variadic: true}
	for n, want := range map[int]bool{0: false, 1: false, 2: true, 5: true} {
		if got := o.Takes(n); got != want {
			t.Errorf("Takes(%d) = %v, want %v", n, got, want)
		}
	}
	if o.Arg(4) != Text || o.Arg(0) != Str {
		t.Errorf("Arg: %v %v", o.Arg(0), o.Arg(4))
	}
}

func TestRegisterLookup(t *testing.T) {
	s := &Set{Name: "zz_test_fn", Aliases: []string{"zz_test_alias"}, Stability: Volatile}
	Register(s)
	if got, ok := Lookup("ZZ_Test_Alias"); !ok || got != s {
		t.Errorf("Lookup by alias = %v, %v", got, ok)
	}
	if !IsVolatile("zz_test_fn") || IsVolatile("nope") {
		t.Error("IsVolatile")
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a name twice did not panic")
		}
	}()
	Register(&Set{Name: "zz_test_alias"})
}

// Choose picks the first overload whose rules accept the argument types,
// as length(VARCHAR) and length(ANY[]): a NULL of no type goes to the
// first; types no overload accepts give the first with ok false when
// another takes as many.
func TestChoose(t *testing.T) {
	s := Set{Name: "length", Overloads: []Overload{
		{Args: []Arg{Varchar}, Returns: columnar.TInt64},
		{Args: []Arg{List}, Returns: columnar.TInt64},
		{Args: []Arg{List, Integer}, Returns: columnar.TInt64},
	}}
	str, list := columnar.TVarchar, columnar.ListOf(columnar.TInt32)
	tests := []struct {
		ts   []columnar.Type
		want int // index of the overload, -1 for nil
		ok   bool
	}{
		{[]columnar.Type{str}, 0, true},
		{[]columnar.Type{list}, 1, true},
		{[]columnar.Type{columnar.TNull}, 0, true},
		{[]columnar.Type{columnar.TInt32}, 0, false},
		{[]columnar.Type{columnar.TInt32, columnar.TInt32}, 2, true}, // the only one taking 2: its conversion decides
		{nil, -1, true},
	}
	for _, tc := range tests {
		o, ok := s.Choose(tc.ts)
		got := -1
		for i := range s.Overloads {
			if o == &s.Overloads[i] {
				got = i
			}
		}
		if got != tc.want || ok != tc.ok {
			t.Errorf("Choose(%v) = overload %d, %v; want %d, %v", tc.ts, got, ok, tc.want, tc.ok)
		}
	}
}

// Result of a Field derivation is the type of the field whose position
// the converted FieldName constant holds.
func TestResultField(t *testing.T) {
	o := Overload{Args: []Arg{Struct, FieldName}, SameAs: 1, Derive: Field}
	st := columnar.StructOf(columnar.Field{Name: "a", Type: columnar.TInt32}, columnar.Field{Name: "b", Type: columnar.TVarchar})
	pos := columnar.IntValue(columnar.TInt64, 1)
	if got := o.Result([]columnar.Type{st, columnar.TInt64}, []*columnar.Value{nil, &pos}); got.ID != columnar.Varchar {
		t.Errorf("Result = %s, want VARCHAR", got)
	}
}
