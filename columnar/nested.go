package columnar

import (
	"strings"
	"sync"
)

// Nest describes a nested type: a LIST's element type, a STRUCT's fields,
// a MAP's key and value types. Nests are interned (one per distinct type,
// built by ListOf, StructOf and MapOf), so that Type values compare with
// == as flat ones do; never build one by hand.
//
// A MAP is laid out as a LIST of STRUCT(key K, value V) entries, as in
// DuckDB and Arrow: its Elem is that entry type, its Fields the entry's
// two fields.
type Nest struct {
	Elem   Type    // List, Map: the element (for Map, the entry struct)
	Fields []Field // Struct: the fields; Map: key and value
	name   string  // the SQL spelling, as DuckDB prints it
	enum   *enumDict
	crs    string // a GEOMETRY's coordinate reference system (geometry_crs.go)
}

var nests sync.Map // name → *Nest

func intern(n *Nest) *Nest {
	got, _ := nests.LoadOrStore(n.name, n)
	return got.(*Nest)
}

// ListOf returns the type elem[] (LIST).
func ListOf(elem Type) Type {
	return Type{ID: List, Nest: intern(&Nest{Elem: elem, name: nullTypeName(elem) + "[]"})}
}

// nullTypeName is t's name inside a nested type's: "NULL" quoted, as
// DuckDB spells the type of [] and map()'s elements.
func nullTypeName(t Type) string {
	if t.ID == Null {
		return `"NULL"`
	}
	return t.String()
}

// StructOf returns STRUCT(name type, …). Fields are nullable whatever
// their Nullable flag says (it is not part of the type). Fields without
// a name make an unnamed STRUCT (row(1, 'a'), DuckDB's
// STRUCT(INTEGER, VARCHAR)): IsUnnamedStruct.
func StructOf(fields ...Field) Type {
	var b strings.Builder
	b.WriteString("STRUCT(")
	fs := make([]Field, len(fields))
	for i, f := range fields {
		if i > 0 {
			b.WriteString(", ")
		}
		if f.Name != "" {
			b.WriteString(QuoteIdent(f.Name))
			b.WriteByte(' ')
		}
		b.WriteString(nullTypeName(f.Type))
		fs[i] = Field{Name: f.Name, Type: f.Type, Nullable: true}
	}
	b.WriteByte(')')
	return Type{ID: Struct, Nest: intern(&Nest{Fields: fs, name: b.String()})}
}

// MapOf returns MAP(key, value).
func MapOf(key, value Type) Type {
	entry := StructOf(Field{Name: "key", Type: key}, Field{Name: "value", Type: value})
	name := "MAP(" + nullTypeName(key) + ", " + nullTypeName(value) + ")"
	return Type{ID: Map, Nest: intern(&Nest{Elem: entry, Fields: entry.Nest.Fields, name: name})}
}

// IsUnnamedStruct reports whether t is a STRUCT whose fields have no
// names (row(…), (a, b)): its fields are known by position only, its
// values print as (1, a), and it casts and combines with other STRUCTs
// field by field in order.
func (t Type) IsUnnamedStruct() bool {
	if t.ID != Struct || len(t.Nest.Fields) == 0 {
		return false
	}
	for _, f := range t.Nest.Fields {
		if f.Name != "" {
			return false
		}
	}
	return true
}

// HoldsUnnamedStruct reports whether t is or contains (as a LIST
// element, a STRUCT field, a MAP key or value) an unnamed STRUCT.
func (t Type) HoldsUnnamedStruct() bool {
	if !t.IsNested() {
		return false
	}
	if t.IsUnnamedStruct() {
		return true
	}
	if t.ID == List && t.Elem().HoldsUnnamedStruct() {
		return true
	}
	for _, f := range t.Nest.Fields {
		if f.Type.HoldsUnnamedStruct() {
			return true
		}
	}
	return false
}

// IsNested reports whether t is a LIST, STRUCT or MAP. (An ENUM keeps
// its values in a Nest too, and a GEOMETRY its CRS, but they are flat.)
func (t Type) IsNested() bool { return t.Nest != nil && t.ID != Enum && t.ID != Geometry }

// Elem returns the element type of a LIST (a MAP's entry struct).
func (t Type) Elem() Type { return t.Nest.Elem }

// Fields returns the fields of a STRUCT (a MAP's key and value).
func (t Type) Fields() []Field { return t.Nest.Fields }

// QuoteIdent spells a field name as DuckDB does in a type: bare when it is
// a plain identifier and no keyword, double-quoted otherwise.
func QuoteIdent(name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			plain = false
			break
		}
	}
	if plain && !reservedWords[strings.ToLower(name)] {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// reservedWords are DuckDB's reserved keywords, which it quotes as field
// names.
var reservedWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`all analyse analyze and any array as asc asymmetric both case cast
		check collate column constraint create default deferrable desc describe distinct do else
		end except false fetch for foreign from grant group having in initially intersect into
		lateral leading limit not null offset on only or order pivot pivot_longer pivot_wider
		placing primary qualify references returning select show some summarize symmetric table
		then to trailing true union unique unpivot using variadic when where window with`) {
		reservedWords[w] = true
	}
}
