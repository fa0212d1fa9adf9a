package json

import (
	"github.com/valyala/fastjson"

	"github.com/b2sql/b2sql/columnar"
)

// nested converts v to a value of nested type t, as DuckDB reads JSON
// into a STRUCT (an object; keys not in t are ignored, fields missing
// from it are NULL), a LIST (an array) or a MAP (an object's keys and
// values); false when v has another shape or a leaf does not convert.
// A VARCHAR leaf holds a string's contents and any other value's JSON
// text. Values are built whole (Value.Elems), then stored: nested JSON is
// converted value by value, not column by column.
func (c *converter) nested(t columnar.Type, v *fastjson.Value) (columnar.Value, bool) {
	if v == nil || v.Type() == fastjson.TypeNull {
		return columnar.NullValue(t), true
	}
	switch t.ID {
	case columnar.Struct:
		o, err := v.Object()
		if err != nil {
			return columnar.Value{}, false
		}
		fs := t.Fields()
		out := columnar.Value{Type: t, Elems: make([]columnar.Value, len(fs))}
		for i, f := range fs {
			x, ok := c.nested(f.Type, o.Get(f.Name))
			if !ok {
				return columnar.Value{}, false
			}
			out.Elems[i] = x
		}
		return out, true
	case columnar.List:
		a, err := v.Array()
		if err != nil {
			return columnar.Value{}, false
		}
		out := columnar.Value{Type: t, Elems: make([]columnar.Value, len(a))}
		for i, e := range a {
			x, ok := c.nested(t.Elem(), e)
			if !ok {
				return columnar.Value{}, false
			}
			out.Elems[i] = x
		}
		return out, true
	case columnar.Map:
		o, err := v.Object()
		if err != nil {
			return columnar.Value{}, false
		}
		entry := t.Elem()
		kt, vt := entry.Fields()[0].Type, entry.Fields()[1].Type
		out := columnar.Value{Type: t, Elems: make([]columnar.Value, 0, o.Len())}
		var keys fastjson.Arena
		ok := true
		o.Visit(func(key []byte, x *fastjson.Value) {
			if !ok {
				return
			}
			var kv, vv columnar.Value
			if kv, ok = c.leaf(kt, keys.NewStringBytes(key)); !ok {
				return
			}
			if vv, ok = c.nested(vt, x); ok {
				out.Elems = append(out.Elems, columnar.Value{Type: entry, Elems: []columnar.Value{kv, vv}})
			}
		})
		return out, ok
	}
	return c.leaf(t, v)
}

// leaf converts scalar v to type t through the column converter of that
// type.
func (c *converter) leaf(t columnar.Type, v *fastjson.Value) (columnar.Value, bool) {
	lc := converter{col: Column{Type: t}, date: c.date, ts: c.ts, cast: c.cast}
	vec := columnar.NewVector(t, 1)
	var text []byte
	if !lc.set(vec, 0, v, &text) {
		return columnar.Value{}, false
	}
	return vec.Value(0), true
}

// nullNested gives the NULL rows among the first n of nested column vec
// empty ranges and NULL fields (the reader only marks NULLs invalid).
func nullNested(vec *columnar.Vector, n int) {
	if vec.Type.Phys() != columnar.PhysNested || vec.Valid == nil {
		return
	}
	for i := range n {
		if !vec.Valid.Get(i) {
			vec.SetValue(i, columnar.MaxBatch, columnar.NullValue(vec.Type))
		}
	}
}
