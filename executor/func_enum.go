package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The ENUM functions, as DuckDB's. Most read only the argument's type (its
// values: enum_first(NULL::mood) is the first value), so they see NULL
// rows; the binder checks that the arguments are ENUMs
// (sql/bind_func_enum.go) and types enum_code by the type's code width.
func init() {
	e := param{"enum", function.Any}
	onType := func(name, desc, example string, ret columnar.Type, f rowFunc) *function.Set {
		o := over(ret, rowsNulls(f), e)
		o.SeesNulls = true
		s := customBind(scalar("", name, desc, ex(example), o))
		s.Categories = nil // as DuckDB lists them
		return s
	}
	varchars := columnar.ListOf(columnar.TVarchar)
	boundary := over(varchars, rowsNulls(fnEnumRangeBoundary), param{"start", function.Any}, param{"end", function.Any})
	boundary.SeesNulls = true
	function.Register(
		onType("enum_range", "All the values of the argument's ENUM type, in order", "enum_range(NULL::ENUM('a', 'b'))", varchars, fnEnumRange),
		onType("enum_first", "The first value of the argument's ENUM type", "enum_first(NULL::ENUM('a', 'b'))", columnar.TVarchar, fnEnumFirst),
		onType("enum_last", "The last value of the argument's ENUM type", "enum_last(NULL::ENUM('a', 'b'))", columnar.TVarchar, fnEnumLast),
		onType("enum_code", "The position of an ENUM value in its type, from 0", "enum_code('b'::ENUM('a', 'b'))", columnar.TUint8, fnEnumCode),
		customBind(scalar("", "enum_range_boundary", "The values of an ENUM type from start to end (a NULL bound is the first or last value)",
			ex("enum_range_boundary(NULL, 'b'::ENUM('a', 'b', 'c'))"), boundary)),
	)
	if s, ok := function.Lookup("enum_range_boundary"); ok {
		s.Categories = nil
	}
}

// enumList is the LIST of VARCHAR of vals.
func enumList(vals []string) columnar.Value {
	elems := make([]columnar.Value, len(vals))
	for i, v := range vals {
		elems[i] = columnar.StringValue(v)
	}
	return columnar.Value{Type: columnar.ListOf(columnar.TVarchar), Elems: elems}
}

func fnEnumRange(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
	return enumList(a[0].Type.EnumValues()), nil
}

func fnEnumFirst(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
	vals := a[0].Type.EnumValues()
	if len(vals) == 0 {
		return columnar.NullValue(columnar.TVarchar), nil
	}
	return columnar.StringValue(vals[0]), nil
}

func fnEnumLast(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
	vals := a[0].Type.EnumValues()
	if len(vals) == 0 {
		return columnar.NullValue(columnar.TVarchar), nil
	}
	return columnar.StringValue(vals[len(vals)-1]), nil
}

// fnEnumCode is the code itself, typed as the binder says (UTINYINT,
// USMALLINT or UINTEGER by the ENUM's size).
func fnEnumCode(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Null {
		return columnar.NullValue(t), nil
	}
	return columnar.IntValue(t, a[0].I), nil
}

// fnEnumRangeBoundary lists the values from start's to end's (both
// included; none when start comes after end), from the first value when
// start is NULL and to the last when end is.
func fnEnumRangeBoundary(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
	t := a[0].Type
	if t.ID != columnar.Enum {
		t = a[1].Type
	}
	vals := t.EnumValues()
	lo, hi := int64(0), int64(len(vals))-1
	if !a[0].Null {
		lo = a[0].I
	}
	if !a[1].Null {
		hi = a[1].I
	}
	if lo > hi {
		return enumList(nil), nil
	}
	return enumList(vals[lo : hi+1]), nil
}
