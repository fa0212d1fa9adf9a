package ctable

import (
	"fmt"
	"github.com/b2sql/b2sql/storage"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// ArrayTable is a b2nd array (a .b2nd file, a sparse .b2nd directory or any
// Blosc2 frame with a b2nd metalayer) seen as a table with one row per
// element, in C order.
//
// Columns: arrays of two or more dimensions first get one BIGINT position
// column per dimension, dim0, dim1, …; then come the value columns: one
// named after the file stem, or one per field of a structured dtype.
// Complex values become two columns <name>_re and <name>_im (FLOAT for c8,
// DOUBLE for c16), since SQL has no complex type. Fixed S and U strings are
// VARCHAR (UCS-4 decoded, trailing NULs trimmed); datetime64 is TIMESTAMP
// (µs) or DATE for [D], timedelta64 INTERVAL. A 0-d array is one row.
//
// It implements the planner's Table, FilterPusher, RowCounter and
// ScanDescriber interfaces; predicates on dim columns skip whole chunks
// (Inexact). Scans are safe to run concurrently; Close must not race them.
type ArrayTable struct {
	name   string
	path   string
	arr    *b2.Array
	schema columnar.Schema
	ndims  int // number of dim columns (0 for 0-d and 1-D arrays)
	convs  []fixedConv
	grid   []int64 // chunks per dimension
	// remote is the object the array is read from (store_remote.go), or nil.
	remote storage.Source
}

// OpenArray opens a b2nd array as a table. The table maps the file; Close
// releases it.
func OpenArray(path string) (*ArrayTable, error) {
	a, err := b2.OpenArray(path)
	if err != nil {
		return nil, fmt.Errorf("ctable: %s: %w", path, err)
	}
	t, err := newArrayTable(a, path, stem(path))
	if err != nil {
		a.Close()
		return nil, err
	}
	return t, nil
}

// newArrayTable builds the schema of an open array.
func newArrayTable(a *b2.Array, path, name string) (*ArrayTable, error) {
	t := &ArrayTable{name: name, path: path, arr: a}
	nd := a.NDim()
	if nd >= 2 {
		t.ndims = nd
		for d := 0; d < nd; d++ {
			t.schema = append(t.schema, columnar.Field{Name: fmt.Sprintf("dim%d", d), Type: columnar.TInt64})
		}
	}
	t.grid = make([]int64, nd)
	for d := 0; d < nd; d++ {
		cs := int64(a.Meta.ChunkShape[d])
		if cs > 0 {
			t.grid[d] = (a.Meta.Shape[d] + cs - 1) / cs
		}
	}
	add := func(colName string, dt b2.DType, off int) error {
		st, mul, div, err := sqlTypeOf(dt)
		if err != nil {
			return fmt.Errorf("ctable: %s: column %q: %w", path, colName, err)
		}
		base := fixedConv{dt: dt, off: off, stride: a.ItemSize(), out: st, mul: mul, div: div}
		if dt.Kind == 'c' {
			for part, suffix := range []string{"_re", "_im"} {
				c := base
				c.part = part
				t.convs = append(t.convs, c)
				t.schema = append(t.schema, columnar.Field{Name: colName + suffix, Type: st})
			}
			return nil
		}
		t.convs = append(t.convs, base)
		t.schema = append(t.schema, columnar.Field{Name: colName, Type: st})
		return nil
	}
	dt := a.DType
	if len(dt.Fields) > 0 {
		for _, f := range dt.Fields {
			if len(f.Shape) > 0 || len(f.Type.Fields) > 0 {
				return nil, fmt.Errorf("ctable: %s: field %q: %w", path, f.Name,
					unsupportedf("sub-array or nested field %s", f.Type.Str))
			}
			if err := add(f.Name, f.Type, f.Offset); err != nil {
				return nil, err
			}
		}
	} else if err := add(name, dt, 0); err != nil {
		return nil, err
	}
	return t, nil
}

// stem is the table name of a path: its base name without extension
// ("data/prices.b2nd" → "prices").
func stem(path string) string {
	base := filepath.Base(strings.TrimRight(path, `/\`))
	if ext := filepath.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// NameValues renames the value column of an array of a plain dtype (the
// _re and _im columns of a complex one) to name, as a set of array files
// read as one table names it after its first file: each file's own stem
// would make every file's column another. Arrays of a structured dtype
// keep their field names. Call it before the table is used.
func (t *ArrayTable) NameValues(name string) {
	if len(t.arr.DType.Fields) > 0 {
		return
	}
	vals := t.schema[t.ndims:]
	if len(vals) == 1 {
		vals[0].Name = name
		return
	}
	for i, suffix := range []string{"_re", "_im"} {
		if i < len(vals) {
			vals[i].Name = name + suffix
		}
	}
}

// Name returns the table's default name, the file stem.
func (t *ArrayTable) Name() string { return t.name }

// Schema returns the position and value columns.
func (t *ArrayTable) Schema() columnar.Schema { return t.schema }

// RowCount returns the number of elements.
func (t *ArrayTable) RowCount() int64 { return t.arr.Len() }

// Shape returns the array's shape; do not modify it.
func (t *ArrayTable) Shape() []int64 { return t.arr.Shape() }

// Metadata returns the array's vlmeta entries (scope "array"), values
// rendered as JSON-ish text.
func (t *ArrayTable) Metadata() []MetaEntry {
	return frameMeta(t.arr.Frame, "array")
}

// Close unmaps the array. Safe to call twice.
func (t *ArrayTable) Close() error {
	if t.arr == nil {
		return nil
	}
	err := t.arr.Close()
	t.arr = nil
	return err
}

// frameMeta renders the vlmeta of f. Entries that cannot be decoded are
// shown as an error string rather than hiding the others.
func frameMeta(f *b2.Frame, scope string) []MetaEntry {
	var out []MetaEntry
	for _, name := range f.VLMetaNames() {
		raw, _, err := f.VLMeta(name)
		var v any
		if err == nil {
			v, err = mpDecode(raw)
		}
		val := render(v)
		if err != nil {
			val = fmt.Sprintf("<error: %v>", err)
		}
		out = append(out, MetaEntry{Scope: scope, Key: name, Value: val})
	}
	return out
}

// MetaEntry is one vlmeta value of a table, an array or one of a table's
// columns. Scope is "table" (user attributes, t.vlmeta in python-blosc2),
// "manifest" (the _meta.b2f bookkeeping: kind, version, schema, epochs,
// index_catalog), "column:<name>" (a column leaf's own vlmeta) or "array".
// Value renders the msgpack value as JSON-ish text (see render).
type MetaEntry struct {
	Scope string
	Key   string
	Value string
}
