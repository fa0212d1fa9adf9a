package columnar

import "strings"

// appendNestedText appends DuckDB's text form of a nested value: [1, 2,
// NULL] for a LIST, {'a': 1, 'b': x} for a STRUCT ((1, x) for an unnamed
// one), {k=1, z=NULL} for a MAP. Strings inside are bare unless they would read ambiguously (see
// quoteNestedString).
func appendNestedText(dst []byte, v Value) []byte {
	switch v.Type.ID {
	case List:
		return append(appendElemList(append(dst, '['), v.Elems), ']')
	case Struct:
		if v.Type.IsUnnamedStruct() {
			return append(appendElemList(append(dst, '('), v.Elems), ')')
		}
		dst = append(dst, '{')
		fs := v.Type.Fields()
		for i, e := range v.Elems {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendQuoted(dst, fs[i].Name)
			dst = append(dst, ": "...)
			dst = appendNestedElem(dst, e)
		}
		return append(dst, '}')
	}
	dst = append(dst, '{')
	for i, e := range v.Elems {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if len(e.Elems) == 2 {
			dst = appendNestedElem(dst, e.Elems[0])
			dst = append(dst, '=')
			dst = appendNestedElem(dst, e.Elems[1])
		}
	}
	return append(dst, '}')
}

// appendElemList appends elements' texts separated by ", ".
func appendElemList(dst []byte, elems []Value) []byte {
	for i, e := range elems {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = appendNestedElem(dst, e)
	}
	return dst
}

// appendNestedElem appends one element of a nested value's text.
func appendNestedElem(dst []byte, e Value) []byte {
	switch {
	case e.Null:
		return append(dst, "NULL"...)
	case e.Type.IsNested():
		return e.AppendText(dst)
	}
	start := len(dst)
	dst = e.AppendText(dst)
	if text := string(dst[start:]); quoteNestedString(text) {
		return appendQuoted(dst[:start], text)
	}
	return dst
}

// quoteNestedString reports whether DuckDB quotes the text of a value
// (of any flat type) inside a nested value's text: when it is empty,
// spells NULL, has space at either end, or holds a character of the nested
// syntax (so timestamps are quoted, for their colons).
func quoteNestedString(s string) bool {
	if s == "" || strings.EqualFold(s, "null") || isSpace(s[0]) || isSpace(s[len(s)-1]) {
		return true
	}
	return strings.ContainsAny(s, "[]{}(),'\":=")
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// appendQuoted appends s in single quotes, a quote or backslash escaped by
// a backslash.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' || s[i] == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '\'')
}

// compareNested orders two non-NULL nested values as DuckDB does: lists
// element by element, then the shorter first; structs field by field; a
// NULL element or field after every value.
func compareNested(a, b Value) int {
	for i := range min(len(a.Elems), len(b.Elems)) {
		x, y := a.Elems[i], b.Elems[i]
		switch {
		case x.Null && y.Null:
			continue
		case x.Null:
			return 1
		case y.Null:
			return -1
		}
		if c := Compare(x, y); c != 0 {
			return c
		}
	}
	return len(a.Elems) - len(b.Elems)
}
