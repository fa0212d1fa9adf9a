package executor

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// castTextNested parses DuckDB's text form of a nested value, as
// '[1, 2]'::INT[] does:
//
//   - a LIST is [e, …] (`[]` and `[ ]` are empty), a STRUCT {name: v, …}
//     (by name, in any order; a name given twice keeps the last; missing
//     fields are NULL) or (v, …) (by position), a MAP {k=v, …} (keys
//     unique and not NULL);
//   - elements split at commas outside quotes and brackets, so an unquoted
//     a[1] or b{c, d} is one string; unquoted whitespace around an element
//     is dropped; an unquoted NULL (any case) is NULL;
//   - a scalar element loses its quotes (' or "; a backslash inside quotes
//     takes the next character as is) and is cast from its text: "NULL"
//     is the string NULL, [,] two empty strings;
//   - anything else (text after the closing bracket, an unknown field, a
//     missing bracket) fails as a cast error naming the whole text.
//
// Under TRY_CAST (try), an element that does not cast is NULL and text
// that is not well formed is NULL as a whole, as in DuckDB.
func castTextNested(text string, to columnar.Type, try bool) (columnar.Value, error) {
	v, ok, err := nestedText{try: try}.parse(strings.TrimSpace(text), to)
	if try && (!ok || err != nil) {
		return columnar.NullValue(to), nil
	}
	if err != nil {
		return columnar.Value{}, err
	}
	if !ok {
		return columnar.Value{}, errorf("could not cast %s to %s", quoteVal(columnar.StringValue(text)), to)
	}
	return v, nil
}

// nestedText parses nested text; try makes element cast errors NULL.
type nestedText struct{ try bool }

// parse parses s (trimmed) as a value of nested type to. ok is
// false when s is not well formed; err is an element's own cast error or a
// MAP's duplicate key.
func (x nestedText) parse(s string, to columnar.Type) (v columnar.Value, ok bool, err error) {
	open, close := byte('['), byte(']')
	if to.ID != columnar.List {
		open, close = '{', '}'
		if to.ID == columnar.Struct && strings.HasPrefix(s, "(") {
			open, close = '(', ')'
		}
	}
	if len(s) < 2 || s[0] != open || s[len(s)-1] != close {
		return v, false, nil
	}
	body := s[1 : len(s)-1]
	parts, ok := splitNested(body, ',')
	if !ok {
		return v, false, nil
	}
	if strings.TrimSpace(body) == "" {
		parts = nil // [ ], { }: empty
	}
	switch {
	case to.ID == columnar.List:
		return x.list(parts, to)
	case to.ID == columnar.Map:
		return x.mapEntries(parts, to)
	case open == '(':
		return x.byPosition(parts, to)
	}
	return x.byName(parts, to)
}

func (x nestedText) list(parts []string, to columnar.Type) (columnar.Value, bool, error) {
	out := columnar.Value{Type: to, Elems: make([]columnar.Value, len(parts))}
	for i, p := range parts {
		e, ok, err := x.elem(p, to.Elem())
		if !ok || err != nil {
			return out, ok, err
		}
		out.Elems[i] = e
	}
	return out, true, nil
}

// byName reads name: value pairs into the fields they name.
func (x nestedText) byName(parts []string, to columnar.Type) (columnar.Value, bool, error) {
	fs := to.Fields()
	out := columnar.Value{Type: to, Elems: make([]columnar.Value, len(fs))}
	for i, f := range fs {
		out.Elems[i] = columnar.NullValue(f.Type)
	}
	for _, p := range parts {
		kv, ok := splitNested(p, ':')
		if !ok || len(kv) < 2 {
			return out, false, nil
		}
		name, val := unquoteNestedText(strings.TrimSpace(kv[0])), kv[1]
		fi := -1
		for i, f := range fs {
			if f.Name == name {
				fi = i
			}
		}
		if fi < 0 {
			return out, false, nil
		}
		e, ok, err := x.elem(val, fs[fi].Type)
		if !ok || err != nil {
			return out, ok, err
		}
		out.Elems[fi] = e
	}
	return out, true, nil
}

// byPosition reads (v, …) into the fields by position.
func (x nestedText) byPosition(parts []string, to columnar.Type) (columnar.Value, bool, error) {
	fs := to.Fields()
	if len(parts) > len(fs) {
		return columnar.Value{}, false, nil
	}
	out := columnar.Value{Type: to, Elems: make([]columnar.Value, len(fs))}
	for i, f := range fs {
		out.Elems[i] = columnar.NullValue(f.Type)
		if i < len(parts) {
			e, ok, err := x.elem(parts[i], f.Type)
			if !ok || err != nil {
				return out, ok, err
			}
			out.Elems[i] = e
		}
	}
	return out, true, nil
}

func (x nestedText) mapEntries(parts []string, to columnar.Type) (columnar.Value, bool, error) {
	entry := to.Elem()
	kt, vt := to.Fields()[0].Type, to.Fields()[1].Type
	out := columnar.Value{Type: to, Elems: make([]columnar.Value, 0, len(parts))}
	for _, p := range parts {
		kv, ok := splitNested(p, '=')
		if !ok || len(kv) < 2 {
			return out, false, nil
		}
		k, ok, err := x.elem(kv[0], kt)
		if !ok || err != nil || k.Null {
			return out, ok && !k.Null, err
		}
		val, ok, err := x.elem(kv[1], vt)
		if !ok || err != nil {
			return out, ok, err
		}
		for _, e := range out.Elems {
			if columnar.Compare(e.Elems[0], k) == 0 {
				return out, true, errMapKeysUnique
			}
		}
		out.Elems = append(out.Elems, columnar.Value{Type: entry, Elems: []columnar.Value{k, val}})
	}
	return out, true, nil
}

// elem parses one element's text (untrimmed) as type t.
func (x nestedText) elem(p string, t columnar.Type) (columnar.Value, bool, error) {
	p = strings.TrimSpace(p)
	if strings.EqualFold(p, "null") {
		return columnar.NullValue(t), true, nil
	}
	if t.IsNested() {
		return x.parse(p, t)
	}
	v, err := CastValue(columnar.StringValue(unquoteNestedText(p)), t)
	if err != nil && x.try {
		return columnar.NullValue(t), true, nil
	}
	return v, true, err
}

// unquoteNestedText drops an element's quotes: quoted runs are taken as
// they are (a backslash in them escapes the next character), the rest
// too, so "a" b reads a b and 'it”s' reads its.
func unquoteNestedText(p string) string {
	if !strings.ContainsAny(p, `"'`) {
		return p
	}
	var b strings.Builder
	var quote byte
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0 && c == '\\' && i+1 < len(p):
			i++
			b.WriteByte(p[i])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// splitNested splits s at each sep outside quotes and brackets. ok is false
// when a quote is not closed or brackets do not balance.
func splitNested(s string, sep byte) (parts []string, ok bool) {
	var quote byte
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{' || c == '(':
			depth++
		case c == ']' || c == '}' || c == ')':
			if depth--; depth < 0 {
				return nil, false
			}
		case c == sep && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
			if sep != ',' {
				// key: value and key=value split once: the value may
				// hold more separators (its own text is checked later).
				return append(parts, s[start:]), true
			}
		}
	}
	if quote != 0 || depth != 0 {
		return nil, false
	}
	return append(parts, s[start:]), true
}
