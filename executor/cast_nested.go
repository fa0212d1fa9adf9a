package executor

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// castNested casts a nested value (not NULL) to another nested type
// element by element, as DuckDB does: a LIST to a LIST of another element
// type, a STRUCT to a STRUCT by field name, a MAP to a MAP; text is
// parsed (cast_nested_text.go).
func castNested(v columnar.Value, to columnar.Type) (columnar.Value, error) {
	if v.Type.IsString() {
		return castTextNested(v.S, to, false)
	}
	return castElems(v, to, CastValue)
}

// castElems casts a nested value's elements (or fields) with cast:
// CastValue, or TryCastValue under TRY_CAST, where an element that does
// not cast is NULL and the rest keep their values, as in DuckDB.
func castElems(v columnar.Value, to columnar.Type, cast func(columnar.Value, columnar.Type) (columnar.Value, error)) (columnar.Value, error) {
	from := v.Type
	if from.ID != to.ID {
		return columnar.Value{}, errorf("could not cast %s to %s", from, to)
	}
	out := columnar.Value{Type: to, Elems: make([]columnar.Value, len(v.Elems))}
	switch to.ID {
	case columnar.Struct:
		if from.IsUnnamedStruct() || to.IsUnnamedStruct() {
			return castFieldsInOrder(v, to, cast)
		}
		// By name, any case, as DuckDB: a target field the value lacks is
		// NULL, a value field the target lacks is dropped; no name in
		// common is an error.
		fs, src := to.Fields(), from.Fields()
		out.Elems = make([]columnar.Value, len(fs))
		matched := false
		for i, f := range fs {
			out.Elems[i] = columnar.NullValue(f.Type)
			for j, g := range src {
				if !strings.EqualFold(f.Name, g.Name) {
					continue
				}
				x, err := cast(v.Elems[j], f.Type)
				if err != nil {
					return columnar.Value{}, err
				}
				out.Elems[i], matched = x, true
				break
			}
		}
		if !matched {
			return columnar.Value{}, errorf("could not cast %s to %s: a STRUCT to STRUCT cast must have at least one matching member", from, to)
		}
		return out, nil
	}
	for i, e := range v.Elems {
		x, err := cast(e, to.Elem())
		if err != nil {
			return columnar.Value{}, err
		}
		out.Elems[i] = x
	}
	return out, nil
}

// castFieldsInOrder casts a STRUCT to another field by field in order,
// as DuckDB casts to or from an unnamed STRUCT; the counts must agree.
func castFieldsInOrder(v columnar.Value, to columnar.Type, cast func(columnar.Value, columnar.Type) (columnar.Value, error)) (columnar.Value, error) {
	fs := to.Fields()
	if len(fs) != len(v.Elems) {
		return columnar.Value{}, errorf("could not cast %s to %s: STRUCTs of different size", v.Type, to)
	}
	out := columnar.Value{Type: to, Elems: make([]columnar.Value, len(fs))}
	for i, f := range fs {
		x, err := cast(v.Elems[i], f.Type)
		if err != nil {
			return columnar.Value{}, err
		}
		out.Elems[i] = x
	}
	return out, nil
}

// TryCastValue is CastValue under TRY_CAST: a value that does not cast is
// NULL instead of an error, and so is each element of a nested value or
// nested text that does not cast (['x'] and '[1, x]' read [NULL] and
// [1, NULL]), as in DuckDB.
func TryCastValue(v columnar.Value, to columnar.Type) (columnar.Value, error) {
	if !v.Null && v.Type.IsString() && to.IsNested() {
		return castTextNested(v.S, to, true)
	}
	var out columnar.Value
	var err error
	if !v.Null && v.Type.IsNested() && v.Type.ID == to.ID {
		out, err = castElems(v, to, TryCastValue) // TRY_CAST(['x'] AS INT[]) is [NULL]
	} else {
		out, err = CastValue(v, to)
	}
	if err != nil {
		return columnar.NullValue(to), nil
	}
	return out, nil
}
