package ctable

import (
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
