package sql

import "github.com/b2sql/b2sql/columnar"

// ENUM typing, as DuckDB: values of one ENUM type compare, sort and group
// by their position in the type's list (their codes); anything else meets
// an ENUM as text. An ENUM and VARCHAR (a string literal included), or two
// different ENUM types, have VARCHAR as common type, so 'ok'::mood <
// 'happy' compares the strings. Compared with another type an ENUM is
// cast to it ('1'::ENUM('1', '2') = 1).

// enumSuper is the common type of an ENUM and another type that is not
// the same ENUM or NULL.
func enumSuper(a, b columnar.Type) (columnar.Type, bool) {
	text := func(t columnar.Type) bool { return t.ID == columnar.Enum || t.ID == columnar.Varchar }
	if text(a) && text(b) {
		return columnar.TVarchar, true
	}
	return columnar.Type{}, false
}

// enumCompareType is the type an ENUM and a type other than text compare
// in: the other type, the ENUM's text cast to it.
func enumCompareType(a, b columnar.Type) (columnar.Type, bool) {
	switch {
	case a.ID == columnar.Enum && b.ID != columnar.Enum && !b.IsNested():
		return b, true
	case b.ID == columnar.Enum && a.ID != columnar.Enum && !a.IsNested():
		return a, true
	}
	return columnar.Type{}, false
}
