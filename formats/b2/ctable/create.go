package ctable

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// ColumnDef declares one column of a table made by CreateEmpty.
type ColumnDef struct {
	Name string
	Type columnar.Type
	// Flavour chooses the storage of a VARCHAR column: "utf8" (offsets +
	// bytes, the default), "string" (fixed UCS-4 of MaxLength characters,
	// the default when MaxLength is set), "dictionary" (int32 codes +
	// values) or "vlstring" (msgpack batches); of a BLOB column: "vlbytes"
	// (the default) or "bytes" (fixed, MaxLength bytes).
	Flavour string
	// Rules are the constraints stored in the schema and checked by
	// writers; Rules.MaxLength is the width of string/bytes flavours.
	Rules Rules
}

// CreateEmpty creates an empty table at path (.b2d or .b2z) with the
// given columns, their constraints stored in the schema as python-blosc2
// stores field constraints (ge/gt/le/lt, max_length, nullability). Rows
// are added with Begin/Append/Commit. Like Create, it builds under a
// temporary name and renames; an existing table at path is replaced.
func CreateEmpty(path string, cols []ColumnDef, opts CreateOptions) (err error) {
	if opts.ChunkRows <= 0 {
		opts.ChunkRows = 65536
	}
	if opts.BlockRows <= 0 {
		opts.BlockRows = 8192
	}
	opts.BlockRows = min(opts.BlockRows, opts.ChunkRows)
	w := &Writer{path: path, opts: opts, zip: opts.Zip || strings.HasSuffix(strings.ToLower(path), ".b2z")}
	if w.dir, err = os.MkdirTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-"); err != nil {
		return fmt.Errorf("ctable: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(w.dir)
		}
	}()
	empty := func(member, dtype string, chunkRows, blockRows int) error {
		if err := os.MkdirAll(filepath.Dir(w.member(member)), 0o755); err != nil {
			return err
		}
		a, err := createArray(w.member(member), dtype, chunkRows, blockRows)
		if err != nil {
			return err
		}
		return a.close()
	}
	if err := empty("_valid_rows.b2nd", "|b1", opts.ChunkRows, opts.BlockRows); err != nil {
		return tableError(path, "_valid_rows.b2nd", err)
	}
	var objs []string
	mask := false
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c.Name] {
			return fmt.Errorf("ctable: %s: column %q appears twice", path, c.Name)
		}
		seen[c.Name] = true
		obj, err := w.emptyColumn(c, empty)
		if err != nil {
			return fmt.Errorf("ctable: %s: column %q: %w", path, c.Name, err)
		}
		for _, kv := range obj {
			if kv.K == "null_storage" {
				mask = true
			}
		}
		js, err := marshalObj(append(jsonObj{{"name", c.Name}}, obj...))
		if err != nil {
			return err
		}
		objs = append(objs, js)
	}
	version := 1
	if mask {
		version = 3
	}
	// summary_indexes_built false: the first append builds them (b2sql's
	// Change, or python-blosc2's close()).
	schema := fmt.Sprintf(`{"version": %d, "columns": [%s], "n_rows": 0, "summary_indexes_built": false}`, version, strings.Join(objs, ", "))
	vl := []b2.Metalayer{
		{Name: "kind", Content: mpAppend(nil, "ctable")},
		{Name: "version", Content: mpAppend(nil, int64(1))},
		{Name: "schema", Content: mpAppend(nil, schema)},
		{Name: "value_epoch", Content: mpAppend(nil, int64(1))},
	}
	if err := emptyFrame(w.member("_meta.b2f"), nil, vl); err != nil {
		return err
	}
	tree := []b2.Metalayer{{Name: "b2tree", Content: mpAppend(nil, mpMap{{"version", int64(1)}})}}
	estore := mpMap{{"embed_map", mpMap{}}, {"current_offset", int64(0)}}
	if err := emptyFrame(w.member("embed.b2e"), tree, []b2.Metalayer{{Name: "estore_metadata", Content: mpAppend(nil, estore)}}); err != nil {
		return err
	}
	if w.zip {
		return w.zipInto()
	}
	return publishDir(w.dir, path)
}

// emptyColumn writes the members of an empty column and returns its
// schema object (after "name").
func (w *Writer) emptyColumn(c ColumnDef, empty func(member, dtype string, chunkRows, blockRows int) error) (jsonObj, error) {
	base, err := colPath(c.Name)
	if err != nil {
		return nil, err
	}
	nullable := c.Rules.Nullable
	maskKeys := func(o jsonObj) jsonObj {
		o = append(o, rulesJSON(c.Rules)...)
		if nullable {
			o = append(o, jsonKV{"nullable", true}, jsonKV{"null_storage", "mask"})
		}
		return o
	}
	cr, br := w.opts.ChunkRows, w.opts.BlockRows
	fixed := func(kind, dtype string, extra ...jsonKV) (jsonObj, error) {
		if err := empty(base+".b2nd", dtype, cr, br); err != nil {
			return nil, err
		}
		return maskKeys(append(jsonObj{{"kind", kind}}, extra...)), nil
	}
	varlen := func(kind, pyType string) (jsonObj, error) {
		ba, err := newBatchArrayWriter(w.member(base+".b2b"), pyType, nullable)
		if err == nil {
			err = os.MkdirAll(filepath.Dir(w.member(base+".b2b")), 0o755)
		}
		if err != nil {
			return nil, err
		}
		if err := ba.close(); err != nil {
			return nil, err
		}
		o := append(jsonObj{{"kind", kind}}, rulesJSON(c.Rules)...)
		return append(o, jsonKV{"nullable", nullable}, jsonKV{"serializer", "msgpack"}, jsonKV{"batch_rows", vlBatchRows}), nil
	}
	if err := os.MkdirAll(filepath.Dir(w.member(base)), 0o755); err != nil {
		return nil, err
	}
	switch c.Type.ID {
	case columnar.Bool:
		return fixed("bool", "|b1")
	case columnar.Int8:
		return fixed("int8", "|i1")
	case columnar.Int16:
		return fixed("int16", "<i2")
	case columnar.Int32:
		return fixed("int32", "<i4")
	case columnar.Int64, columnar.Interval:
		return fixed("int64", "<i8")
	case columnar.Uint8:
		return fixed("uint8", "|u1")
	case columnar.Uint16:
		return fixed("uint16", "<u2")
	case columnar.Uint32:
		return fixed("uint32", "<u4")
	case columnar.Uint64:
		return fixed("uint64", "<u8")
	case columnar.Float32:
		return fixed("float32", "<f4")
	case columnar.Float64, columnar.Decimal, columnar.Decimal128, columnar.Hugeint, columnar.Uhugeint:
		return fixed("float64", "<f8")
	case columnar.Timestamp, columnar.Date:
		return fixed("timestamp", "<i8", jsonKV{"unit", "us"})
	case columnar.TimestampTZ:
		// An instant: UTC microseconds, as an Arrow timestamp with a zone
		// (python-blosc2 keeps the zone for Arrow; any zone reads back
		// as TIMESTAMPTZ).
		return fixed("timestamp", "<i8", jsonKV{"unit", "us"}, jsonKV{"timezone", "UTC"})
	case columnar.TimestampNS:
		return fixed("timestamp", "<i8", jsonKV{"unit", "ns"})
	case columnar.Varchar:
		switch fl := c.Flavour; {
		case fl == "string" || fl == "" && c.Rules.MaxLength > 0:
			n := c.Rules.MaxLength
			if n <= 0 {
				n = 32 // python-blosc2's default max_length
			}
			c.Rules.MaxLength = 0 // written as the kind's max_length below
			o, err := fixed("string", fmt.Sprintf("<U%d", n), jsonKV{"max_length", n})
			return o, err
		case fl == "" || fl == "utf8":
			// utf8 offsets start with one 0.
			a, err := createArray(w.member(base+".b2nd"), "<i8", 131072, 32768)
			if err != nil {
				return nil, err
			}
			if err := a.append(make([]byte, 8)); err != nil {
				a.abort()
				return nil, err
			}
			if err := a.close(); err != nil {
				return nil, err
			}
			if err := empty(base+".utf8.b2nd", "|u1", 2097152, 262144); err != nil {
				return nil, err
			}
			return maskKeys(jsonObj{{"kind", "utf8"}}), nil
		case fl == "dictionary":
			if err := empty(base+".b2nd", "<i4", 4096, 256); err != nil {
				return nil, err
			}
			ba, err := newBatchArrayWriter(w.member(base+"_dict.b2b"), "str", false)
			if err != nil {
				return nil, err
			}
			if err := ba.close(); err != nil {
				return nil, err
			}
			o := jsonObj{{"kind", "dictionary"}, {"index_type", jsonObj{{"kind", "int32"}}},
				{"value_type", jsonObj{{"kind", "vlstring"}, {"nullable", false}, {"serializer", "msgpack"}, {"batch_rows", vlBatchRows}}},
				{"ordered", false}}
			o = append(o, rulesJSON(c.Rules)...)
			if nullable {
				o = append(o, jsonKV{"nullable", true}, jsonKV{"null_code", -1})
			}
			return o, nil
		case fl == "vlstring":
			return varlen("vlstring", "str")
		}
		return nil, fmt.Errorf("unknown VARCHAR flavour %q (utf8, string, dictionary, vlstring)", c.Flavour)
	case columnar.Blob:
		switch c.Flavour {
		case "", "vlbytes":
			return varlen("vlbytes", "bytes")
		case "bytes":
			n := c.Rules.MaxLength
			if n <= 0 {
				n = 32
			}
			c.Rules.MaxLength = 0
			return fixed("bytes", fmt.Sprintf("|S%d", n), jsonKV{"max_length", n})
		}
		return nil, fmt.Errorf("unknown BLOB flavour %q (vlbytes, bytes)", c.Flavour)
	}
	return nil, unsupportedType(c.Type)
}
