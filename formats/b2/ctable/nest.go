package ctable

import (
	"fmt"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// Nested columns: python-blosc2's `struct` kind (a BatchArray whose item
// per row is a msgpack map of the fields, nil for NULL) and `list` kind (a
// ListArray: the same BatchArray layout under a `listarray` metalayer, an
// item per row being a msgpack array, nil for NULL). Their schema entry
// nests the kinds of the fields (`fields`) or of the items (`item`), which
// nest maps to SQL types:
//
//	struct            → STRUCT(…)
//	list              → LIST (python-blosc2 4.11 refuses lists of lists
//	                    and NULL items; b2sql reads them if present)
//	int8 … uint64, float32, float64, bool → the same SQL types
//	timestamp(unit)   → TIMESTAMP (the integer in unit, floored to µs)
//	string, utf8, vlstring, dictionary → VARCHAR
//	bytes, vlbytes    → BLOB
//
// python-blosc2's `object` kind (schema-less msgpack per row), at the top
// or inside a struct or list, is read as the SQL type of what it holds
// (object.go): a MAP for dicts. Other kinds inside a nested column
// (complex, ndarray) leave the column skipped, as the reader does for
// kinds it does not expose. A list stored with the `vl` backend (an
// ObjectArray) is skipped too.

// nest is the kind tree of a nested column or of one of its parts.
type nest struct {
	kind   string
	typ    columnar.Type
	unit   [2]int64 // timestamp: multiplier, divisor towards µs
	fields []nestField
	item   *nest // list: the items; object: what it holds (nil: JSON text)
	// map (only as what an object holds, object.go): keys and values
	key, val *nest
	// object: the type was inferred from the first rows (sampleRows)
	inferred bool
}

type nestField struct {
	name string
	n    *nest
}

// parseNest reads the kind tree of a schema entry (a column's or an
// item's object).
func parseNest(obj map[string]any) (*nest, error) {
	kind, _ := obj["kind"].(string)
	n := &nest{kind: kind}
	switch kind {
	case "struct":
		fs, _ := obj["fields"].([]any)
		if len(fs) == 0 {
			return nil, corruptf("struct with no fields")
		}
		sf := make([]columnar.Field, len(fs))
		for i, f := range fs {
			fo, ok := f.(map[string]any)
			if !ok {
				return nil, corruptf("struct field %d is not an object", i)
			}
			name, _ := fo["name"].(string)
			k, err := parseNest(fo)
			if err != nil {
				return nil, fmt.Errorf("field %q: %w", name, err)
			}
			n.fields = append(n.fields, nestField{name, k})
			sf[i] = columnar.Field{Name: name, Type: k.typ}
		}
		n.typ = columnar.StructOf(sf...)
	case "list":
		if st, _ := obj["storage"].(string); st == "vl" {
			return nil, unsupportedf("list stored with the vl backend")
		}
		if se, _ := obj["serializer"].(string); se != "" && se != "msgpack" {
			return nil, unsupportedf("list serializer %q", se)
		}
		io, ok := obj["item"].(map[string]any)
		if !ok {
			return nil, corruptf("list with no item kind")
		}
		k, err := parseNest(io)
		if err != nil {
			return nil, err
		}
		n.item = k
		n.typ = columnar.ListOf(k.typ)
	case "timestamp":
		u, _ := obj["unit"].(string)
		if u == "" {
			u = "us"
		}
		m, ok := unitMicros[u]
		if !ok {
			return nil, unsupportedf("timestamp unit %q", u)
		}
		n.unit, n.typ = m, columnar.TTimestamp
	case "object", "map", "json":
		return parseObjectNest(n, obj) // object.go
	case "string", "utf8", "vlstring", "dictionary":
		n.typ = columnar.TVarchar
	case "bytes", "vlbytes":
		n.typ = columnar.TBlob
	default:
		cs := colSpec{Kind: kind}
		_, ts := cs.sqlTypes()
		if len(ts) != 1 || kind == "complex64" || kind == "complex128" {
			return nil, unsupportedf("kind %q inside a nested column", kind)
		}
		n.typ = ts[0]
	}
	return n, nil
}

// value converts a decoded msgpack item to a SQL value of n's type.
func (n *nest) value(x any) (columnar.Value, error) {
	if x == nil {
		return columnar.NullValue(n.typ), nil
	}
	switch n.kind {
	case "object", "map", "json":
		return n.objectValue(x) // object.go
	case "struct":
		m, ok := x.(mpMap)
		if !ok {
			return columnar.Value{}, corruptf("struct item is %s, not a map", render(x))
		}
		out := columnar.Value{Type: n.typ, Elems: make([]columnar.Value, len(n.fields))}
		for i, f := range n.fields {
			fx, _ := m.get(f.name) // a missing field is NULL
			v, err := f.n.value(fx)
			if err != nil {
				return v, fmt.Errorf("field %q: %w", f.name, err)
			}
			out.Elems[i] = v
		}
		return out, nil
	case "list":
		xs, ok := untuple(x) // a Python tuple in an object column is a list
		if !ok {
			return columnar.Value{}, corruptf("list item is %s, not an array", render(x))
		}
		out := columnar.Value{Type: n.typ, Elems: make([]columnar.Value, len(xs))}
		for i, e := range xs {
			v, err := n.item.value(e)
			if err != nil {
				return v, err
			}
			out.Elems[i] = v
		}
		return out, nil
	}
	switch n.typ.Phys() {
	case columnar.PhysBool:
		if b, ok := x.(bool); ok {
			return columnar.BoolValue(b), nil
		}
	case columnar.PhysInt:
		i, ok := asInt(x)
		if b, isB := x.(bool); isB { // numpy bools in an int column
			i, ok = map[bool]int64{false: 0, true: 1}[b], true
		}
		if ok {
			if n.kind == "timestamp" {
				i = floorDiv(i*n.unit[0], n.unit[1])
			}
			return columnar.IntValue(n.typ, i), nil
		}
	case columnar.PhysUint:
		switch u := x.(type) {
		case uint64:
			return columnar.UintValue(u), nil
		case int64:
			if u >= 0 {
				return columnar.UintValue(uint64(u)), nil
			}
		}
	case columnar.PhysFloat:
		switch f := x.(type) {
		case float64:
			return columnar.FloatValue(n.typ, f), nil
		case int64:
			return columnar.FloatValue(n.typ, float64(f)), nil
		case uint64:
			return columnar.FloatValue(n.typ, float64(f)), nil
		}
	case columnar.PhysBytes:
		switch s := x.(type) {
		case string:
			return columnar.Value{Type: n.typ, S: s}, nil
		case []byte:
			return columnar.Value{Type: n.typ, S: string(s)}, nil
		}
	}
	return columnar.Value{}, corruptf("%s item is %s", n.kind, render(x))
}

// encode appends row i of v (a vector of n's type) as a msgpack item: a
// map for a struct, an array for a list, nil for NULL.
func (n *nest) encode(b []byte, v *columnar.Vector, i int) ([]byte, error) {
	if v.Type.ID == columnar.Null || v.IsNull(i) {
		return append(b, 0xc0), nil
	}
	switch {
	case n.kind == "object" && n.item != nil:
		return n.item.encode(b, v, i)
	case n.kind == "object" || n.kind == "json": // JSON text (object.go)
		return appendJSONAsMp(b, v.Bytes[i])
	}
	var err error
	switch v.Type.ID {
	case columnar.Map:
		return n.encodeMap(b, v, i) // object.go
	case columnar.Struct:
		b = mpMapHeader(b, len(n.fields))
		for f, nf := range n.fields {
			b = mpStr(b, nf.name)
			if b, err = nf.n.encode(b, v.Kids[f], i); err != nil {
				return nil, err
			}
		}
		return b, nil
	case columnar.List:
		s, e := int(v.Starts[i]), int(v.Ends[i])
		b = mpArrayHeader(b, e-s)
		for j := s; j < e; j++ {
			if b, err = n.item.encode(b, v.Kids[0], j); err != nil {
				return nil, err
			}
		}
		return b, nil
	case columnar.Bool:
		return mpAppend(b, v.Bools[i]), nil
	case columnar.Timestamp, columnar.Date:
		us := v.Ints[i]
		if v.Type.ID == columnar.Date {
			us *= columnar.MicrosPerDay
		}
		if n.unit[0] != 0 { // the column's unit (a table being extended)
			us = floorDiv(us*n.unit[1], n.unit[0])
		}
		return mpInt(b, us), nil
	case columnar.Decimal:
		return mpAppend(b, float64(v.Ints[i])/math.Pow10(int(v.Type.Scale))), nil
	case columnar.Uint64:
		return mpAppend(b, v.Uints[i]), nil
	case columnar.Blob:
		return mpBin(b, v.Bytes[i]), nil
	case columnar.Varchar:
		return mpStr(b, string(v.Bytes[i])), nil
	}
	switch v.Type.Phys() {
	case columnar.PhysInt:
		return mpInt(b, v.Ints[i]), nil
	case columnar.PhysFloat:
		return mpAppend(b, v.Floats[i]), nil
	}
	return nil, fmt.Errorf("cannot store %s in a nested CTable column", v.Type)
}

// nestOf is the kind tree of SQL type t, as a nested column or a part of
// one, and its schema entry (python-blosc2's to_metadata_dict). A part
// has python-blosc2's kind for the SQL type, as the flat columns do:
// VARCHAR utf8, BLOB vlbytes, TIMESTAMP and DATE timestamp(us), DECIMAL
// float64; MAP python-blosc2's `object` kind, a dict per row (object.go).
// Lists of lists and kinds without a CTable kind (TIME, INTERVAL) are
// refused: python-blosc2 4.11 refuses a list whose items are lists when
// it opens the table.
func nestOf(t columnar.Type, nullable bool) (*nest, jsonObj, error) {
	n := &nest{typ: t}
	switch t.ID {
	case columnar.Struct:
		n.kind = "struct"
		var fields []jsonObj
		for _, f := range t.Fields() {
			k, obj, err := nestOf(f.Type, true)
			if err != nil {
				return nil, nil, fmt.Errorf("field %q: %w", f.Name, err)
			}
			n.fields = append(n.fields, nestField{f.Name, k})
			fields = append(fields, append(jsonObj{{"name", f.Name}}, obj...))
		}
		return n, jsonObj{{"kind", "struct"}, {"fields", fields}, {"nullable", nullable}}, nil
	case columnar.List:
		if t.Elem().ID == columnar.List {
			return nil, nil, unsupportedf("%s: python-blosc2 4.11 has no lists of lists", t)
		}
		k, obj, err := nestOf(t.Elem(), true)
		if err != nil {
			return nil, nil, err
		}
		n.kind, n.item = "list", k
		return n, jsonObj{{"kind", "list"}, {"item", obj}, {"nullable", nullable}, {"storage", "batch"}, {"serializer", "msgpack"}}, nil
	case columnar.Map:
		return objectOf(t, nullable) // object.go
	case columnar.Varchar:
		n.kind = "utf8"
	case columnar.Blob:
		n.kind = "vlbytes"
	case columnar.Timestamp, columnar.Date:
		n.kind, n.unit = "timestamp", unitMicros["us"]
		return n, jsonObj{{"kind", "timestamp"}, {"unit", "us"}}, nil
	case columnar.Decimal:
		n.kind = "float64"
	case columnar.Bool, columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64,
		columnar.Uint8, columnar.Uint16, columnar.Uint32, columnar.Uint64, columnar.Float32, columnar.Float64:
		n.kind = map[columnar.TypeID]string{columnar.Bool: "bool", columnar.Int8: "int8", columnar.Int16: "int16",
			columnar.Int32: "int32", columnar.Int64: "int64", columnar.Uint8: "uint8", columnar.Uint16: "uint16",
			columnar.Uint32: "uint32", columnar.Uint64: "uint64", columnar.Float32: "float32", columnar.Float64: "float64"}[t.ID]
	default:
		return nil, nil, unsupportedf("%s inside a nested CTable column", t)
	}
	return n, jsonObj{{"kind", n.kind}}, nil
}

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
