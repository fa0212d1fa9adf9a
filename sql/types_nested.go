package sql

import "github.com/b2sql/b2sql/columnar"

// nestedSuper is superType for two nested types of one kind: a LIST of
// its elements' common type, a STRUCT of as many fields (by position,
// a's names) of common types, a MAP of common key and value types.
func nestedSuper(a, b columnar.Type) (columnar.Type, bool) {
	if a.ID != b.ID {
		return columnar.Type{}, false
	}
	switch a.ID {
	case columnar.List:
		e, ok := superType(a.Elem(), b.Elem())
		return columnar.ListOf(e), ok
	case columnar.Map:
		k, ok1 := superType(a.Fields()[0].Type, b.Fields()[0].Type)
		v, ok2 := superType(a.Fields()[1].Type, b.Fields()[1].Type)
		return columnar.MapOf(k, v), ok1 && ok2
	}
	fa, fb := a.Fields(), b.Fields()
	if len(fa) != len(fb) {
		return columnar.Type{}, false
	}
	fs := make([]columnar.Field, len(fa))
	for i := range fa {
		t, ok := superType(fa[i].Type, fb[i].Type)
		if !ok {
			return columnar.Type{}, false
		}
		fs[i] = columnar.Field{Name: fa[i].Name, Type: t}
	}
	return columnar.StructOf(fs...), true
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
