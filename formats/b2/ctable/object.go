package ctable

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
)

// python-blosc2 has no typed kind for a MAP: its from_arrow stores an
// Arrow map (with object_fallback) as an `object` column, one msgpack
// value per row in a BatchArray tagged py_type "object" (schema.py
// ObjectSpec), and a user may put any msgpack-able value there. Arrow's
// to_pylist gives a map row as a list of (key, value) tuples, which
// python-blosc2's msgpack writes as arrays ["__tuple__", key, value]; a
// Python dict is a msgpack map. Both read as a MAP.
//
// The schema says only "object", so the SQL type comes from the values:
//
//   - a table b2sql wrote records the type of every column holding an
//     object part in the schema's metadata.b2sql_kinds (python-blosc2
//     carries metadata it does not know through), as a kind tree with
//     "map" for a MAP; that tree is the column's type.
//   - otherwise the type is inferred from the first sampleRows rows, as
//     DuckDB's read_json infers a JSON file's (its sample_size default):
//     dicts and lists of pairs → MAP(K, V), other arrays → LIST, str
//     VARCHAR, bin BLOB, int BIGINT, float (or int and float) DOUBLE,
//     bool BOOLEAN; a part whose rows disagree, or that is NULL in every
//     sampled row, is JSON text (VARCHAR), as read_json makes such a part
//     JSON. A later row that does not fit is an error naming the row,
//     not a guess.
//
// A MAP column is written as such an object column, nil for NULL: a
// msgpack map per row when its keys are VARCHAR or BLOB (python-blosc2
// gives the same dict back), else an array of (key, value) tuples, the
// form python-blosc2's from_arrow writes, since python-blosc2's msgpack
// reader refuses map keys that are not str or bytes (strict_map_key). Its
// keys must be scalars: a Python tuple holding a list is no dict key.

// sampleRows is how many rows an object column's type is inferred from
// (DuckDB's read_json sample_size).
const sampleRows = 20480

// parseObjectNest reads an object, map or json entry of a kind tree
// (n.kind set). An object's type is JSON text until resolveObjects gives
// it its content.
func parseObjectNest(n *nest, obj map[string]any) (*nest, error) {
	switch n.kind {
	case "object":
		if se, _ := obj["serializer"].(string); se != "" && se != "msgpack" {
			return nil, unsupportedf("object serializer %q", se)
		}
		n.typ = columnar.TVarchar
	case "json":
		n.typ = columnar.TVarchar
	case "map":
		ko, ok1 := obj["key"].(map[string]any)
		vo, ok2 := obj["value"].(map[string]any)
		if !ok1 || !ok2 {
			return nil, corruptf("map kind with no key or value kind")
		}
		var err error
		if n.key, err = parseNest(ko); err != nil {
			return nil, err
		}
		if n.val, err = parseNest(vo); err != nil {
			return nil, err
		}
		n.typ = columnar.MapOf(n.key.typ, n.val.typ)
	}
	return n, nil
}

// objectValue converts a decoded msgpack value to a value of n's type.
func (n *nest) objectValue(x any) (columnar.Value, error) {
	switch n.kind {
	case "object":
		if n.item == nil {
			return jsonValue(x)
		}
		v, err := n.item.value(x)
		if err != nil && n.inferred {
			// Not corrupt: a value beyond the sample that the inferred
			// type does not hold.
			err = fmt.Errorf("%s does not fit %s, the type of this python-blosc2 object column inferred from its first %d rows", render(x), n.typ, sampleRows)
		}
		return v, err
	case "json":
		return jsonValue(x)
	}
	pairs, ok := mapPairs(x)
	if !ok {
		return columnar.Value{}, corruptf("map item is %s, not a map", render(x))
	}
	entry := n.typ.Elem()
	out := columnar.Value{Type: n.typ, Elems: make([]columnar.Value, len(pairs))}
	for i, p := range pairs {
		k, err := n.key.value(p[0])
		if err != nil {
			return k, err
		}
		if k.Null {
			return k, corruptf("map key is NULL")
		}
		v, err := n.val.value(p[1])
		if err != nil {
			return v, err
		}
		out.Elems[i] = columnar.Value{Type: entry, Elems: []columnar.Value{k, v}}
	}
	return out, nil
}

// mapPairs returns the entries of a map row: a msgpack map, or an array
// of (key, value) tuples (Arrow's to_pylist of a map), [] being empty.
func mapPairs(x any) ([][2]any, bool) {
	if m, ok := x.(mpMap); ok {
		out := make([][2]any, len(m))
		for i, e := range m {
			out[i] = [2]any{e.Key, e.Val}
		}
		return out, true
	}
	a, ok := x.([]any)
	if !ok {
		return nil, false
	}
	out := make([][2]any, len(a))
	for i, e := range a {
		p, ok := pairTuple(e)
		if !ok {
			return nil, false
		}
		out[i] = p
	}
	return out, true
}

// pairTuple returns the two items of a tuple ["__tuple__", a, b].
func pairTuple(x any) ([2]any, bool) {
	a, ok := x.([]any)
	if !ok || len(a) != 3 {
		return [2]any{}, false
	}
	if s, ok := a[0].(string); !ok || s != "__tuple__" {
		return [2]any{}, false
	}
	return [2]any{a[1], a[2]}, true
}

// encodeMap appends row i of the MAP vector v: a msgpack map when its
// keys are strings or bytes, else an array of (key, value) tuples
// (python-blosc2's msgpack reader refuses other map keys).
func (n *nest) encodeMap(b []byte, v *columnar.Vector, i int) ([]byte, error) {
	s, e := int(v.Starts[i]), int(v.Ends[i])
	entries := v.Kids[0]
	dict := dictKeys(n.key.typ)
	if dict {
		b = mpMapHeader(b, e-s)
	} else {
		b = mpArrayHeader(b, e-s)
	}
	var err error
	for j := s; j < e; j++ {
		if !dict {
			b = mpStr(mpArrayHeader(b, 3), "__tuple__")
		}
		if b, err = n.key.encode(b, entries.Kids[0], j); err != nil {
			return nil, err
		}
		if b, err = n.val.encode(b, entries.Kids[1], j); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// dictKeys reports whether a map with keys of type t is written as a
// msgpack map: python-blosc2 unpacks with msgpack's strict_map_key, which
// allows only str and bytes keys.
func dictKeys(t columnar.Type) bool {
	return t.ID == columnar.Varchar || t.ID == columnar.Blob
}

// objectOf is the kind tree and schema entry of a MAP column or part:
// python-blosc2's object kind holding the map.
func objectOf(t columnar.Type, nullable bool) (*nest, jsonObj, error) {
	kt, vt := t.Fields()[0].Type, t.Fields()[1].Type
	if kt.IsNested() {
		return nil, nil, unsupportedf("%s: python-blosc2 cannot read map keys that are lists, structs or maps", t)
	}
	key, _, err := nestOf(kt, false)
	if err != nil {
		return nil, nil, err
	}
	val, _, err := nestOf(vt, true)
	if err != nil {
		return nil, nil, err
	}
	m := &nest{kind: "map", typ: t, key: key, val: val}
	return &nest{kind: "object", typ: t, item: m},
		jsonObj{{"kind", "object"}, {"nullable", nullable}, {"serializer", "msgpack"}, {"batch_rows", vlBatchRows}}, nil
}

// hasObject reports whether the kind tree n holds an object part.
func (n *nest) hasObject() bool {
	switch {
	case n == nil:
		return false
	case n.kind == "object":
		return true
	case n.item != nil:
		return n.item.hasObject()
	}
	for _, f := range n.fields {
		if f.n.hasObject() {
			return true
		}
	}
	return false
}

// kindTree is n as recorded in metadata.b2sql_kinds: the schema's kind
// tree with each object part replaced by what it holds.
func (n *nest) kindTree() jsonObj {
	switch n.kind {
	case "object":
		if n.item == nil {
			return jsonObj{{"kind", "json"}}
		}
		return n.item.kindTree()
	case "map":
		return jsonObj{{"kind", "map"}, {"key", n.key.kindTree()}, {"value", n.val.kindTree()}}
	case "list":
		return jsonObj{{"kind", "list"}, {"item", n.item.kindTree()}}
	case "struct":
		fields := make([]jsonObj, len(n.fields))
		for i, f := range n.fields {
			fields[i] = append(jsonObj{{"name", f.name}}, f.n.kindTree()...)
		}
		return jsonObj{{"kind", "struct"}, {"fields", fields}}
	case "timestamp":
		return jsonObj{{"kind", "timestamp"}, {"unit", "us"}}
	}
	return jsonObj{{"kind", n.kind}}
}

// retype recomputes the SQL types of n's struct, list, map and object
// parts from their children (after resolveObjects filled objects in).
func (n *nest) retype() {
	switch n.kind {
	case "object":
		if n.item != nil {
			n.item.retype()
			n.typ = n.item.typ
		}
	case "map":
		n.key.retype()
		n.val.retype()
		n.typ = columnar.MapOf(n.key.typ, n.val.typ)
	case "list":
		n.item.retype()
		n.typ = columnar.ListOf(n.item.typ)
	case "struct":
		fs := make([]columnar.Field, len(n.fields))
		for i, f := range n.fields {
			f.n.retype()
			fs[i] = columnar.Field{Name: f.name, Type: f.n.typ}
		}
		n.typ = columnar.StructOf(fs...)
	}
}

// applyKinds gives each object part of n what the recorded kind tree rec
// (metadata.b2sql_kinds) says it holds. A tree that does not match the
// schema's leaves the parts it does not reach as JSON text.
func (n *nest) applyKinds(rec map[string]any) error {
	switch n.kind {
	case "object":
		c, err := parseNest(rec)
		if err != nil {
			return err
		}
		if c.kind != "json" {
			n.item = c
		}
	case "list":
		if io, ok := rec["item"].(map[string]any); ok {
			return n.item.applyKinds(io)
		}
	case "struct":
		fs, _ := rec["fields"].([]any)
		for i, f := range n.fields {
			if i >= len(fs) {
				break
			}
			if fo, ok := fs[i].(map[string]any); ok {
				if err := f.n.applyKinds(fo); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
