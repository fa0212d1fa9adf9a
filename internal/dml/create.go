package dml

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// Where CREATE TABLE puts a table: WITH (FORMAT b2d | b2z | parquet |
// memory), else a .b2d CTable in a database with a directory (opened on
// one, or the directory a database ATTACH made is: db.t is its t.b2d) and
// an in-memory table otherwise. A file table made without a directory
// goes to the DB's private temporary directory.

// TableFormat reads the FORMAT option of table (its key, s.t or t):
// without one, memory, or b2d where the table's file would have a
// directory (catalog.TableDir: the database's, or the directory of the
// database ATTACH made that the table is in). parquet is allowed for CREATE
// TABLE … AS only (a Parquet file cannot take INSERTs).
func TableFormat(cat *catalog.Catalog, table string, opts []sql.Option, allowParquet bool) (string, error) {
	format := ""
	for _, o := range opts {
		at := o.Pos
		switch o.Name {
		case "format":
			switch v := strings.ToLower(o.Value); v {
			case "b2d", "ctable", "b2":
				format = "b2d"
			case "b2z", "memory":
				format = v
			case "parquet":
				if !allowParquet {
					return "", &sql.Error{Pos: at, Kind: sql.ErrUnsupported, Msg: "FORMAT parquet is for CREATE TABLE … AS (a Parquet table cannot take INSERT); use b2d, b2z or memory"}
				}
				format = v
			default:
				return "", &sql.Error{Pos: at, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("table format %q is not supported (b2d, b2z, parquet, memory)", o.Value)}
			}
		default:
			return "", &sql.Error{Pos: at, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("unknown table option %q (format)", o.Name)}
		}
	}
	if format == "" {
		format = "memory"
		if cat.TableDir(table) != "" {
			format = "b2d"
		}
	}
	return format, nil
}

// checkTableName rejects names that cannot name a file.
func checkTableName(name string, pos sql.Pos) error {
	if name == "" || strings.ContainsAny(name, `/\`+"\x00") || strings.HasPrefix(name, ".") {
		return &sql.Error{Pos: pos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("table name %q cannot name a file", name)}
	}
	return nil
}

// createTable runs CREATE TABLE name (columns …).
func createTable(cat *catalog.Catalog, s *sql.CreateTable) error {
	at := s.NamePos
	if cat.ReadOnly() {
		return catalog.ReadOnlyError(s.NamePos, "CREATE TABLE")
	}
	if err := checkTableName(s.Name, s.NamePos); err != nil {
		return err
	}
	format, err := TableFormat(cat, s.Name, s.Options, false)
	if err != nil {
		return err
	}
	defer cat.Lock("table:" + strings.ToLower(s.Name))()
	if msg := sql.TempMismatch(cat, s.Name, s.Temp); msg != "" {
		return &sql.Error{Pos: at, Kind: catalog.ErrTableExists, Msg: msg}
	}
	if _, exists := cat.Table(s.Name); exists {
		if s.IfNotExists {
			return nil
		}
		if !s.Replace {
			return &sql.Error{Pos: at, Kind: catalog.ErrTableExists, Msg: fmt.Sprintf("table %q already exists (use CREATE OR REPLACE TABLE)", s.Name)}
		}
	}
	cols, err := sql.ResolveColumns(s.Cols, cat) // CREATE TYPE types
	if err != nil {
		return err
	}
	// Generated columns are computed where the table is read: the table
	// stores the others (sql/bind_generated.go).
	cols, gens, err := sql.ResolveGenerated(s.Name, cols, cat)
	if err != nil {
		return err
	}
	if gens != nil {
		if format != "memory" {
			return &sql.Error{Pos: sql.Pos{Line: gens[0].Expr.Line, Col: gens[0].Expr.Col}, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("column %q: generated columns are kept by in-memory tables (WITH (FORMAT memory)); a CTable's schema, python-blosc2's, holds no expressions", gens[0].Name)}
		}
		cols = storedColumns(cols)
	}
	schema := make(columnar.Schema, len(cols))
	cons := make([]catalog.ColumnConstraints, len(cols))
	defs := make([]ctable.ColumnDef, len(cols))
	for i, c := range cols {
		schema[i] = columnar.Field{Name: c.Name, Type: c.Type, Nullable: !c.NotNull}
		if len(c.Checks) > 0 && !c.Type.IsNumeric() {
			return &sql.Error{Pos: c.Pos, Kind: sql.ErrType, Msg: fmt.Sprintf("column %q: CHECK bounds apply to numeric columns, not %s", c.Name, c.Type)}
		}
		cons[i] = catalog.ColumnConstraints{Nullable: !c.NotNull, MaxLength: c.Length, Checks: c.Checks}
		defs[i] = ctable.ColumnDef{Name: c.Name, Type: c.Type, Flavour: c.Flavour, Rules: cons[i].CTableRules()}
		if format == "memory" {
			// VARCHAR(n) limits a CTable's string(max_length=n), which
			// holds no longer value; DuckDB's tables take any length.
			cons[i].MaxLength = 0
		}
		if c.Flavour != "" {
			ok := false
			switch c.Type.ID {
			case columnar.Varchar:
				ok = c.Flavour == "utf8" || c.Flavour == "string" || c.Flavour == "dictionary" || c.Flavour == "vlstring"
				if ok && c.Length > 0 && c.Flavour != "string" {
					return &sql.Error{Pos: c.FlavourPos, Kind: sql.ErrUnsupported,
						Msg: fmt.Sprintf("column %q: VARCHAR(%d) is stored as string(max_length=%d); drop USING %s or the length", c.Name, c.Length, c.Length, c.Flavour)}
				}
			case columnar.Blob:
				ok = c.Flavour == "vlbytes" || c.Flavour == "bytes"
			}
			if !ok {
				return &sql.Error{Pos: c.FlavourPos, Kind: sql.ErrUnsupported,
					Msg: fmt.Sprintf("column %q: USING %s does not apply to %s (VARCHAR: utf8, string, dictionary, vlstring; BLOB: vlbytes, bytes)", c.Name, c.Flavour, c.Type)}
			}
		}
	}
	var defaults []sql.Source
	for i, c := range cols {
		if c.Default == "" {
			continue
		}
		// Bound now for its errors, positioned in this statement; each
		// statement that fills a row with it binds it again.
		x, err := sql.BindDefault(sql.DefaultSource(c), c.Type, cat)
		if err != nil {
			return err
		}
		if format != "memory" {
			// python-blosc2's schema keeps a value, not an expression.
			v, ok := constDefault(x)
			if !ok {
				return &sql.Error{Pos: c.DefaultPos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("column %q: a CTable keeps only a constant number, string or boolean DEFAULT; use an in-memory table (WITH (FORMAT memory)) for others", c.Name)}
			}
			defs[i].Rules.Default = &v
			continue
		}
		if defaults == nil {
			defaults = make([]sql.Source, len(cols))
		}
		defaults[i] = sql.DefaultSource(c)
	}
	if format == "memory" {
		var primary []bool // the PRIMARY KEY's columns, for DESCRIBE
		for i, c := range cols {
			if c.PrimaryKey {
				if primary == nil {
					primary = make([]bool, len(cols))
				}
				primary[i] = true
			}
		}
		return cat.CreateMem(s.Name, schema, cons, storedKeys(s.Keys, gens), primary, defaults, gens, s.Temp, true)
	}
	if len(s.Keys) > 0 {
		return &sql.Error{Pos: at, Kind: sql.ErrUnsupported, Msg: "PRIMARY KEY and UNIQUE are enforced on in-memory tables only (CTables have no keys)"}
	}
	path, err := cat.TablePath(s.Name, format)
	if err != nil {
		return err
	}
	unlock, err := catalog.LockFile(path)
	if err != nil {
		return err
	}
	defer unlock()
	if cat.FileExists(path) && !s.Replace {
		return &sql.Error{Pos: at, Kind: catalog.ErrTableExists, Msg: fmt.Sprintf("%s already exists (use CREATE OR REPLACE TABLE)", path)}
	}
	// Inside a transaction the table is made where COMMIT publishes it
	// from (catalog/tx_files.go).
	if path, err = cat.StagePath(s.Name, path); err != nil {
		return err
	}
	if err := ctable.CreateEmpty(path, defs, ctable.CreateOptions{}); err != nil {
		return err
	}
	t, err := catalog.OpenFile(path)
	if err != nil {
		return err
	}
	cat.Put(s.Name, t)
	return nil
}

// storedKeys renumbers the key column sets keys, numbered among all the
// columns, among the stored ones (no key holds a generated column: the
// statement refuses it).
func storedKeys(keys [][]int, gens []sql.GeneratedColumn) [][]int {
	if gens == nil {
		return keys
	}
	out := make([][]int, len(keys))
	for k, key := range keys {
		for _, ci := range key {
			shift := 0
			for _, g := range gens {
				if g.At < ci {
					shift++
				}
			}
			out[k] = append(out[k], ci-shift)
		}
	}
	return out
}

// storedColumns returns cols without the generated ones.
func storedColumns(cols []sql.ColumnDef) []sql.ColumnDef {
	var out []sql.ColumnDef
	for _, c := range cols {
		if c.Generated == "" {
			out = append(out, c)
		}
	}
	return out
}
