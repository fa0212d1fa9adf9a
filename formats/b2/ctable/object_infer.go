package ctable

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
)

// An object column without a recorded kind tree gets its SQL type from
// its first sampleRows rows (object.go): each object part of the column's
// kind tree collects a shape of the values it holds, and the shapes
// become kind trees.

// shape is what the sampled values of an object part (or of a part of
// them) have in common.
type shape struct {
	// "" (nothing but NULL seen), "bool", "int", "uint", "float", "str",
	// "bin", "list", "map", or "json" (values that disagree)
	kind     string
	item     *shape // list
	key, val *shape // map
}

// add merges value x into s.
func (s *shape) add(x any) {
	if x == nil || s.kind == "json" {
		return
	}
	var kind string
	var items []any
	var pairs [][2]any
	switch v := x.(type) {
	case bool:
		kind = "bool"
	case int64:
		kind = "int"
	case uint64:
		kind = "uint"
	case float64:
		kind = "float"
	case string:
		kind = "str"
	case []byte:
		kind = "bin"
	case mpMap:
		kind = "map"
		pairs, _ = mapPairs(v)
	case []any:
		if p, ok := mapPairs(v); ok && len(v) > 0 {
			kind, pairs = "map", p
		} else {
			kind, items = "list", v
			items, _ = untuple(v)
		}
	default: // an extension value (an embedded python-blosc2 object)
		kind = "json"
	}
	switch {
	case s.kind == "" || s.kind == kind:
		s.kind = kind
	case numeric(s.kind) && numeric(kind):
		s.kind = "float"
	case s.kind == "list" && kind == "map" && s.item == nil:
		s.kind = "map" // the lists seen so far were empty maps
	case s.kind == "map" && kind == "list" && len(items) == 0:
		return // an empty map
	default:
		s.kind, s.item, s.key, s.val = "json", nil, nil, nil
		return
	}
	switch s.kind {
	case "list":
		for _, e := range items {
			if s.item == nil {
				s.item = &shape{}
			}
			s.item.add(e)
		}
	case "map":
		if s.key == nil {
			s.key, s.val = &shape{}, &shape{}
		}
		for _, p := range pairs {
			s.key.add(p[0])
			s.val.add(p[1])
		}
	}
}

func numeric(kind string) bool { return kind == "int" || kind == "uint" || kind == "float" }

// nest is the kind tree of the values s describes.
func (s *shape) nest() *nest {
	if s == nil {
		return &nest{kind: "json", typ: columnar.TVarchar}
	}
	switch s.kind {
	case "bool":
		return &nest{kind: "bool", typ: columnar.TBool}
	case "int":
		return &nest{kind: "int64", typ: columnar.TInt64}
	case "uint":
		return &nest{kind: "uint64", typ: columnar.TUint64}
	case "float":
		return &nest{kind: "float64", typ: columnar.TFloat64}
	case "str":
		return &nest{kind: "utf8", typ: columnar.TVarchar}
	case "bin":
		return &nest{kind: "vlbytes", typ: columnar.TBlob}
	case "list":
		item := s.item.nest()
		return &nest{kind: "list", typ: columnar.ListOf(item.typ), item: item}
	case "map":
		k, v := s.key.nest(), s.val.nest()
		return &nest{kind: "map", typ: columnar.MapOf(k.typ, v.typ), key: k, val: v}
	}
	return &nest{kind: "json", typ: columnar.TVarchar}
}

// observe adds the object parts of value x of kind tree n to shapes.
func observe(n *nest, x any, shapes map[*nest]*shape) {
	if x == nil {
		return
	}
	switch n.kind {
	case "object":
		s := shapes[n]
		if s == nil {
			s = &shape{}
			shapes[n] = s
		}
		s.add(x)
	case "list":
		if xs, ok := untuple(x); ok {
			for _, e := range xs {
				observe(n.item, e, shapes)
			}
		}
	case "struct":
		if m, ok := x.(mpMap); ok {
			for _, f := range n.fields {
				if fx, ok := m.get(f.name); ok {
					observe(f.n, fx, shapes)
				}
			}
		}
	}
}

// inferObjects gives the object parts of column cs the types of its
// first sampleRows rows, read from st (nphys physical rows).
func inferObjects(cs *colSpec, st store, nphys int64) error {
	base, err := colPath(cs.Name)
	if err != nil {
		return err
	}
	src := &colSource{spec: *cs, base: base}
	if err := src.open(st, nphys); err != nil {
		return err
	}
	shapes := map[*nest]*shape{}
	ba := src.ba
	for k := 0; k+1 < len(ba.starts) && ba.starts[k] < min(sampleRows, nphys); k++ {
		vals, err := ba.decodeValues(nil, k, ba.starts[k+1]-ba.starts[k])
		if err != nil {
			return err
		}
		for _, x := range vals {
			observe(cs.Nest, x, shapes)
		}
	}
	var fill func(n *nest)
	fill = func(n *nest) {
		switch {
		case n.kind == "object":
			if c := shapes[n].nest(); c.kind != "json" {
				n.item, n.inferred = c, true
			}
		case n.item != nil:
			fill(n.item)
		}
		for _, f := range n.fields {
			fill(f.n)
		}
	}
	fill(cs.Nest)
	return nil
}

// resolveObjects gives every object part of the columns of man (a table
// in st of nphys physical rows) its type: the recorded kind tree
// (metadata.b2sql_kinds) or the sampled values'. The table's Open runs
// it before building the schema, which takes the types from it.
func resolveObjects(man *manifest, st store, nphys int64) error {
	for i := range man.Cols {
		cs := &man.Cols[i]
		if cs.Flavour != flNested || !cs.Nest.hasObject() {
			continue
		}
		var err error
		if rec, ok := man.Kinds[cs.Name]; ok {
			err = cs.Nest.applyKinds(rec)
		} else {
			err = inferObjects(cs, st, nphys)
		}
		if err != nil {
			return fmt.Errorf("column %q: %w", cs.Name, err)
		}
		cs.Nest.retype()
	}
	return nil
}
