package sql

import (
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// nestedSuper is superType for two nested types of one kind: a LIST of
// its elements' common type, a STRUCT of the fields of both by name, a MAP
// of common key and value types.
func nestedSuper(a, b columnar.Type) (columnar.Type, bool) { return nestedSuperBy(a, b, superType) }

// nestedSuperBy is nestedSuper with super deciding the elements' and
// fields' common types (setOpSuper for the columns of a set operation).
func nestedSuperBy(a, b columnar.Type, super func(a, b columnar.Type) (columnar.Type, bool)) (columnar.Type, bool) {
	if a.ID != b.ID {
		return columnar.Type{}, false
	}
	switch a.ID {
	case columnar.List:
		e, ok := super(a.Elem(), b.Elem())
		return columnar.ListOf(e), ok
	case columnar.Map:
		k, ok1 := super(a.Fields()[0].Type, b.Fields()[0].Type)
		v, ok2 := super(a.Fields()[1].Type, b.Fields()[1].Type)
		return columnar.MapOf(k, v), ok1 && ok2
	}
	if a.IsUnnamedStruct() || b.IsUnnamedStruct() {
		return positionalSuper(a, b, super)
	}
	// STRUCTs combine by field name (any case), as DuckDB's: a's fields
	// in order, then b's others; a field both have is of their common
	// type. [{'a': 1}, {'b': 2}] is STRUCT(a INTEGER, b INTEGER)[].
	fs := slices.Clone(a.Fields())
	for _, f := range b.Fields() {
		i := fieldIndex(fs, f.Name)
		if i < 0 {
			fs = append(fs, f)
			continue
		}
		t, ok := super(fs[i].Type, f.Type)
		if !ok {
			return columnar.Type{}, false
		}
		fs[i].Type = t
	}
	return columnar.StructOf(fs...), true
}

// positionalSuper combines two STRUCTs one of which is unnamed field by
// field in order, as DuckDB does: the common type of each pair, named as
// the named one's fields ((1, 2) = {'a': 1, 'b': 2} compares two
// STRUCT(a INTEGER, b INTEGER)); a different field count has none.
func positionalSuper(a, b columnar.Type, super func(a, b columnar.Type) (columnar.Type, bool)) (columnar.Type, bool) {
	af, bf := a.Fields(), b.Fields()
	if len(af) != len(bf) {
		return columnar.Type{}, false
	}
	named := af
	if a.IsUnnamedStruct() {
		named = bf
	}
	fs := make([]columnar.Field, len(af))
	for i := range af {
		t, ok := super(af[i].Type, bf[i].Type)
		if !ok {
			return columnar.Type{}, false
		}
		fs[i] = columnar.Field{Name: named[i].Name, Type: t}
	}
	return columnar.StructOf(fs...), true
}

// fieldIndex is the position of the field named name (any case) in fs, or -1.
func fieldIndex(fs []columnar.Field, name string) int {
	for i, f := range fs {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// canCastNested reports whether CAST between two nested types is defined:
// the same kind, with castable parts (executor cast_nested.go).
func canCastNested(from, to columnar.Type) bool {
	if from.ID != to.ID {
		return false
	}
	if from.ID == columnar.List {
		return canCast(from.Elem(), to.Elem())
	}
	ff, tf := from.Fields(), to.Fields()
	if from.ID == columnar.Map {
		return canCast(ff[0].Type, tf[0].Type) && canCast(ff[1].Type, tf[1].Type)
	}
	// STRUCT: by position when either is unnamed (as many fields), else
	// by name (executor cast_nested.go), with one name at least in
	// common; fields only one side has are dropped or NULL.
	if from.IsUnnamedStruct() || to.IsUnnamedStruct() {
		if len(ff) != len(tf) {
			return false
		}
		for i := range ff {
			if !canCast(ff[i].Type, tf[i].Type) {
				return false
			}
		}
		return true
	}
	matched := false
	for _, f := range tf {
		if i := fieldIndex(ff, f.Name); i >= 0 {
			if !canCast(ff[i].Type, f.Type) {
				return false
			}
			matched = true
		}
	}
	return matched
}
