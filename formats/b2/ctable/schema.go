package ctable

import (
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// flavour is how a CTable column is stored (spec §6.3).
type flavour uint8

const (
	flFixed   flavour = iota // one b2nd array: numeric, bool, complex, timestamp, string, bytes
	flUTF8                   // int64 offsets + uint8 blob
	flDict                   // int32 codes + _dict.b2b values
	flVarlen                 // BatchArray of msgpack str/bin/nil
	flNested                 // BatchArray of msgpack maps (struct) or arrays (list), nested.go
	flLeaves                 // a STRUCT made of dotted leaf columns, no storage of its own (leaves.go)
	flSkipped                // a known kind this reader does not expose
)

// colSpec is one column of the manifest's schema JSON.
type colSpec struct {
	Name      string
	Kind      string
	Flavour   flavour
	Nullable  bool
	Mask      bool // null_storage "mask": _cols/<name>.notnull.b2nd
	Sentinel  any  // null_value (JSON value) or nil
	HasSent   bool
	MaxLength int
	Unit      string // timestamp unit
	Timezone  string // timestamp: "" for local (naive) times, else an instant (TIMESTAMPTZ)
	NullCode  int64  // dictionary
	ValueKind string // dictionary value_type kind
	Nest      *nest  // struct and list columns: the kind tree
	Rules     Rules  // declared constraints (constraints.go)
}

// manifest is what _meta.b2f's vlmeta says about the table.
type manifest struct {
	Version    int64
	Cols       []colSpec
	NRows      int64 // -1 when absent
	ValueEpoch int64 // -1 when absent
	Catalog    mpMap // index_catalog, nil when absent
	// Parents are the struct columns stored as dotted leaf columns
	// (schema metadata struct_parents, leaves.go), by name.
	Parents map[string]colSpec
	// Kinds are the kind trees b2sql recorded for columns holding an
	// object part (schema metadata b2sql_kinds, object.go), by name.
	Kinds   map[string]map[string]any
	Entries []MetaEntry
}

// parseManifest reads the manifest from the vlmeta of an opened _meta.b2f
// frame. It reads no column data.
func parseManifest(f *b2.Frame) (*manifest, error) {
	vals := map[string]any{}
	var entries []MetaEntry
	for _, name := range f.VLMetaNames() {
		raw, _, err := f.VLMeta(name)
		if err != nil {
			return nil, err
		}
		v, err := mpDecode(raw)
		if err != nil {
			return nil, fmt.Errorf("vlmeta %q: %w", name, err)
		}
		vals[name] = v
		entries = append(entries, MetaEntry{Scope: "manifest", Key: name, Value: render(v)})
	}
	m, err := manifestFrom(vals)
	if err != nil {
		return nil, err
	}
	m.Entries = entries
	return m, nil
}

// manifestFrom interprets the decoded vlmeta values of _meta.b2f.
func manifestFrom(vals map[string]any) (*manifest, error) {
	m := &manifest{NRows: -1, ValueEpoch: -1}
	if k, _ := vals["kind"].(string); k != "ctable" {
		return nil, corruptf("vlmeta kind is %s, want \"ctable\"", render(vals["kind"]))
	}
	if v, ok := asInt(vals["version"]); ok {
		m.Version = v
	}
	if v, ok := asInt(vals["value_epoch"]); ok {
		m.ValueEpoch = v
	}
	if c, ok := vals["index_catalog"].(mpMap); ok {
		m.Catalog = c
	}
	js, ok := vals["schema"].(string)
	if !ok {
		if b, isBin := vals["schema"].([]byte); isBin {
			js, ok = string(b), true
		}
	}
	if !ok {
		return nil, corruptf("vlmeta schema missing or not a string")
	}
	doc, err := parseJSON([]byte(js))
	if err != nil {
		return nil, err
	}
	if n, ok := jsonInt(doc["n_rows"]); ok && n >= 0 {
		m.NRows = n
	}
	cols, ok := doc["columns"].([]any)
	if !ok {
		return nil, corruptf("schema JSON has no columns list")
	}
	if m.Kinds, err = recordedKinds(doc); err != nil {
		return nil, err
	}
	if m.Parents, err = structParents(doc); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, c := range cols {
		obj, ok := c.(map[string]any)
		if !ok {
			return nil, corruptf("schema column %d is not an object", i)
		}
		cs, err := parseColSpec(obj)
		if err != nil {
			return nil, fmt.Errorf("schema column %d: %w", i, err)
		}
		if seen[cs.Name] {
			return nil, corruptf("schema column %q appears twice", cs.Name)
		}
		seen[cs.Name] = true
		m.Cols = append(m.Cols, cs)
	}
	return m, nil
}

func parseColSpec(obj map[string]any) (colSpec, error) {
	cs := colSpec{NullCode: -1}
	var ok bool
	if cs.Name, ok = obj["name"].(string); !ok || cs.Name == "" {
		return cs, corruptf("no name")
	}
	if cs.Kind, ok = obj["kind"].(string); !ok {
		return cs, corruptf("column %q has no kind", cs.Name)
	}
	cs.Nullable, _ = obj["nullable"].(bool)
	if st, _ := obj["null_storage"].(string); st == "mask" {
		cs.Mask, cs.Nullable = true, true
	}
	if v, has := obj["null_value"]; has && v != nil {
		cs.Sentinel, cs.HasSent, cs.Nullable = v, true, true
	}
	if n, ok := jsonInt(obj["max_length"]); ok {
		cs.MaxLength = int(n)
	}
	cs.Unit, _ = obj["unit"].(string)
	cs.Timezone, _ = obj["timezone"].(string)
	cs.Rules = parseRules(obj)
	switch cs.Kind {
	case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
		"float32", "float64", "bool", "complex64", "complex128", "timestamp", "string", "bytes":
		cs.Flavour = flFixed
		if cs.Kind == "timestamp" {
			if cs.Unit == "" {
				cs.Unit = "us"
			}
			if _, ok := unitMicros[cs.Unit]; !ok {
				return cs, unsupportedf("column %q: timestamp unit %q", cs.Name, cs.Unit)
			}
		}
	case "utf8":
		cs.Flavour = flUTF8
	case "dictionary":
		cs.Flavour = flDict
		cs.Nullable = cs.Nullable || obj["null_code"] != nil
		if n, ok := jsonInt(obj["null_code"]); ok {
			cs.NullCode = n
		}
		cs.ValueKind = "vlstring"
		if vt, ok := obj["value_type"].(map[string]any); ok {
			if k, ok := vt["kind"].(string); ok {
				cs.ValueKind = k
			}
		}
		if cs.ValueKind != "vlstring" && cs.ValueKind != "vlbytes" {
			return cs, unsupportedf("column %q: dictionary of %q values", cs.Name, cs.ValueKind)
		}
		if it, ok := obj["index_type"].(map[string]any); ok {
			if k, _ := it["kind"].(string); k != "" && k != "int32" {
				return cs, unsupportedf("column %q: dictionary codes of kind %q", cs.Name, k)
			}
		}
	case "vlstring", "vlbytes":
		cs.Flavour = flVarlen
	case "struct", "list", "object":
		n, err := parseNest(obj)
		switch {
		case errors.Is(err, ErrUnsupported):
			// A part of a kind SQL has no type for: left out of the schema
			// and listed by Skipped.
			cs.Flavour = flSkipped
		case err != nil:
			return cs, fmt.Errorf("column %q: %w", cs.Name, err)
		default:
			cs.Flavour, cs.Nest = flNested, n
		}
	case "ndarray":
		// A known kind without an SQL mapping: left out of the schema and
		// listed by Skipped.
		cs.Flavour = flSkipped
	default:
		return cs, unsupportedf("column %q has unknown kind %q", cs.Name, cs.Kind)
	}
	return cs, nil
}

// timestampType is the SQL type of a timestamp column, as DuckDB reads an
// Arrow timestamp: with a timezone (any zone: the values are UTC epoch
// counts) TIMESTAMP WITH TIME ZONE; naive nanoseconds TIMESTAMP_NS, kept
// exact; other naive units TIMESTAMP, in microseconds.
func (cs *colSpec) timestampType() columnar.Type {
	switch {
	case cs.Timezone != "":
		return columnar.TTimestampTZ
	case cs.Unit == "ns":
		return columnar.Type{ID: columnar.TimestampNS}
	}
	return columnar.TTimestamp
}

// timeScale is (multiplier, divisor) from a timestamp column's stored unit
// to its SQL type's: microseconds, or nanoseconds for TIMESTAMP_NS.
func (cs *colSpec) timeScale() [2]int64 {
	if cs.timestampType().ID == columnar.TimestampNS {
		return [2]int64{1, 1}
	}
	return unitMicros[cs.Unit]
}

// unitMicros maps a timestamp unit to (multiplier, divisor) towards µs.
var unitMicros = map[string][2]int64{
	"s": {1_000_000, 1}, "ms": {1000, 1}, "us": {1, 1}, "ns": {1, 1000},
}

// sqlTypes returns the SQL column(s) a ctable column exposes: complex
// columns become two, <name>_re and <name>_im.
func (cs *colSpec) sqlTypes() (names []string, types []columnar.Type) {
	if cs.Nest != nil {
		return []string{cs.Name}, []columnar.Type{cs.Nest.typ}
	}
	switch cs.Kind {
	case "int8":
		return []string{cs.Name}, []columnar.Type{columnar.TInt8}
	case "int16":
		return []string{cs.Name}, []columnar.Type{columnar.TInt16}
	case "int32":
		return []string{cs.Name}, []columnar.Type{columnar.TInt32}
	case "int64":
		return []string{cs.Name}, []columnar.Type{columnar.TInt64}
	case "uint8":
		return []string{cs.Name}, []columnar.Type{columnar.TUint8}
	case "uint16":
		return []string{cs.Name}, []columnar.Type{columnar.TUint16}
	case "uint32":
		return []string{cs.Name}, []columnar.Type{columnar.TUint32}
	case "uint64":
		return []string{cs.Name}, []columnar.Type{columnar.TUint64}
	case "float32":
		return []string{cs.Name}, []columnar.Type{columnar.TFloat32}
	case "float64":
		return []string{cs.Name}, []columnar.Type{columnar.TFloat64}
	case "bool":
		return []string{cs.Name}, []columnar.Type{columnar.TBool}
	case "complex64":
		return []string{cs.Name + "_re", cs.Name + "_im"}, []columnar.Type{columnar.TFloat32, columnar.TFloat32}
	case "complex128":
		return []string{cs.Name + "_re", cs.Name + "_im"}, []columnar.Type{columnar.TFloat64, columnar.TFloat64}
	case "timestamp":
		return []string{cs.Name}, []columnar.Type{cs.timestampType()}
	case "string", "utf8", "vlstring":
		return []string{cs.Name}, []columnar.Type{columnar.TVarchar}
	case "bytes", "vlbytes":
		return []string{cs.Name}, []columnar.Type{columnar.TBlob}
	case "dictionary":
		if cs.ValueKind == "vlbytes" {
			return []string{cs.Name}, []columnar.Type{columnar.TBlob}
		}
		return []string{cs.Name}, []columnar.Type{columnar.TVarchar}
	}
	return nil, nil
}

// wantDType checks that a fixed column's stored dtype can hold its kind;
// a mismatch means the schema contradicts the column files.
func (cs *colSpec) wantDType(dt b2.DType) error {
	ok := false
	switch cs.Kind {
	case "int8", "int16", "int32", "int64":
		ok = dt.Kind == 'i' && dt.ItemSize == kindBits(cs.Kind)/8
	case "uint8", "uint16", "uint32", "uint64":
		ok = dt.Kind == 'u' && dt.ItemSize == kindBits(cs.Kind)/8
	case "float32":
		ok = dt.Kind == 'f' && dt.ItemSize == 4
	case "float64":
		ok = dt.Kind == 'f' && dt.ItemSize == 8
	case "bool":
		// Sentinel-null bools are widened to uint8 (255 = NULL).
		ok = (dt.Kind == 'b' || dt.Kind == 'u') && dt.ItemSize == 1
	case "complex64":
		ok = dt.Kind == 'c' && dt.ItemSize == 8
	case "complex128":
		ok = dt.Kind == 'c' && dt.ItemSize == 16
	case "timestamp":
		ok = (dt.Kind == 'i' || dt.Kind == 'M') && dt.ItemSize == 8
	case "string":
		ok = dt.Kind == 'U'
	case "bytes":
		ok = dt.Kind == 'S'
	}
	if !ok {
		return corruptf("schema says %s, column is stored as %s", cs.Kind, dt.Str)
	}
	if dt.BigEndian() && dt.ItemSize > 1 {
		return unsupportedf("big-endian dtype %s", dt.Str)
	}
	return nil
}

func kindBits(kind string) int {
	switch {
	case strings.HasSuffix(kind, "8"):
		return 8
	case strings.HasSuffix(kind, "16"):
		return 16
	case strings.HasSuffix(kind, "32"):
		return 32
	}
	return 64
}

// colPath maps a column name to its member path stem under _cols/ (spec
// §6.1): unescaped dots separate segments; %, /, ., \ inside a segment are
// percent-encoded; a backslash escapes a dot.
func colPath(name string) (string, error) {
	var segs []string
	var cur strings.Builder
	flush := func() {
		segs = append(segs, cur.String())
		cur.Reset()
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '\\' && i+1 < len(name) && name[i+1] == '.':
			cur.WriteString("%2E")
			i++
		case c == '.':
			flush()
		case c == '%':
			cur.WriteString("%25")
		case c == '/':
			cur.WriteString("%2F")
		case c == '\\':
			cur.WriteString("%5C")
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	for _, s := range segs {
		if s == "" {
			return "", corruptf("column name %q has an empty path segment", name)
		}
	}
	return "_cols/" + strings.Join(segs, "/"), nil
}

// recordedKinds reads the schema's metadata.b2sql_kinds (object.go).
func recordedKinds(doc map[string]any) (map[string]map[string]any, error) {
	md, _ := doc["metadata"].(map[string]any)
	bk, ok := md["b2sql_kinds"]
	if !ok {
		return nil, nil
	}
	kinds, ok := bk.(map[string]any)
	if !ok {
		return nil, corruptf("metadata b2sql_kinds is not an object")
	}
	out := make(map[string]map[string]any, len(kinds))
	for name, v := range kinds {
		if out[name], ok = v.(map[string]any); !ok {
			return nil, corruptf("b2sql_kinds entry %q is not an object", name)
		}
	}
	return out, nil
}

// structParents reads the struct columns of the schema's
// metadata.struct_parents; entries that are not structs of kinds the
// reader maps are left out (their leaves stay flat).
func structParents(doc map[string]any) (map[string]colSpec, error) {
	md, _ := doc["metadata"].(map[string]any)
	sp, _ := md["struct_parents"].(map[string]any)
	if len(sp) == 0 {
		return nil, nil
	}
	out := map[string]colSpec{}
	for name, v := range sp {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, corruptf("struct_parents entry %q is not an object", name)
		}
		withName := map[string]any{"name": name}
		for k, x := range obj {
			if k != "name" {
				withName[k] = x
			}
		}
		cs, err := parseColSpec(withName)
		if errors.Is(err, ErrUnsupported) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("struct_parents: %w", err)
		}
		if cs.Flavour == flNested && cs.Nest.kind == "struct" {
			out[name] = cs
		}
	}
	return out, nil
}
