package b2sql

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// Where CREATE TABLE puts a table: WITH (FORMAT b2d | b2z | parquet |
// memory), else a .b2d CTable in a database with a directory (opened on
// one, or given by ATTACH) and an in-memory table otherwise. A file table
// made without a directory goes to the DB's private temporary directory.

// tableFormat reads the FORMAT option; parquet is allowed for CREATE
// TABLE … AS only (a Parquet file cannot take INSERTs).
func (db *DB) tableFormat(opts []sql.Option, allowParquet bool) (string, error) {
	format := ""
	for _, o := range opts {
		at := Pos{o.Pos.Line, o.Pos.Col}
		switch o.Name {
		case "format":
			switch v := strings.ToLower(o.Value); v {
			case "b2d", "ctable", "b2":
				format = "b2d"
			case "b2z", "memory":
				format = v
			case "parquet":
				if !allowParquet {
					return "", &Error{Pos: at, Kind: ErrUnsupported, Msg: "FORMAT parquet is for CREATE TABLE … AS (a Parquet table cannot take INSERT); use b2d, b2z or memory"}
				}
				format = v
			default:
				return "", &Error{Pos: at, Kind: ErrUnsupported, Msg: fmt.Sprintf("table format %q is not supported (b2d, b2z, parquet, memory)", o.Value)}
			}
		default:
			return "", &Error{Pos: at, Kind: ErrUnsupported, Msg: fmt.Sprintf("unknown table option %q (format)", o.Name)}
		}
	}
	if format == "" {
		format = "memory"
		if db.writeDirSet() {
			format = "b2d"
		}
	}
	return format, nil
}

// writeDirSet reports whether the DB has a directory for new tables.
func (db *DB) writeDirSet() bool {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.dir != ""
}

// checkTableName rejects names that cannot name a file.
func checkTableName(name string, pos sql.Pos) error {
	if name == "" || strings.ContainsAny(name, `/\`+"\x00") || strings.HasPrefix(name, ".") {
		return &Error{Pos: Pos{pos.Line, pos.Col}, Kind: ErrUnsupported, Msg: fmt.Sprintf("table name %q cannot name a file", name)}
	}
	return nil
}

// createTable runs CREATE TABLE name (columns …).
func (db *DB) createTable(s *sql.CreateTable) (*Rows, error) {
	at := Pos{s.NamePos.Line, s.NamePos.Col}
	if db.settings.readOnly {
		return nil, db.readOnlyError(s.NamePos, "CREATE TABLE")
	}
	if err := checkTableName(s.Name, s.NamePos); err != nil {
		return nil, err
	}
	format, err := db.tableFormat(s.Options, false)
	if err != nil {
		return nil, err
	}
	key := strings.ToLower(s.Name)
	defer db.writes.lock("table:" + key)()
	if _, exists := (catalog{db}).Table(s.Name); exists {
		if s.IfNotExists {
			return valueRows(nil, nil), nil
		}
		if !s.Replace {
			return nil, &Error{Pos: at, Kind: ErrTableExists, Msg: fmt.Sprintf("table %q already exists (use CREATE OR REPLACE TABLE)", s.Name)}
		}
	}
	schema := make(columnar.Schema, len(s.Cols))
	rules := make([]ctable.Rules, len(s.Cols))
	defs := make([]ctable.ColumnDef, len(s.Cols))
	for i, c := range s.Cols {
		schema[i] = columnar.Field{Name: c.Name, Type: c.Type, Nullable: !c.NotNull}
		r := ctable.Rules{Nullable: !c.NotNull, MaxLength: c.Length}
		for _, ch := range c.Checks {
			if !c.Type.IsNumeric() {
				return nil, &Error{Pos: Pos{c.Pos.Line, c.Pos.Col}, Kind: ErrType, Msg: fmt.Sprintf("column %q: CHECK bounds apply to numeric columns, not %s", c.Name, c.Type)}
			}
			r.Bounds = append(r.Bounds, ctable.Bound{Op: ch.Op, Val: ch.Val})
		}
		rules[i] = r
		defs[i] = ctable.ColumnDef{Name: c.Name, Type: c.Type, Flavour: c.Flavour, Rules: r}
		if c.Flavour != "" {
			ok := false
			switch c.Type.ID {
			case columnar.Varchar:
				ok = c.Flavour == "utf8" || c.Flavour == "string" || c.Flavour == "dictionary" || c.Flavour == "vlstring"
				if ok && c.Length > 0 && c.Flavour != "string" {
					return nil, &Error{Pos: Pos{c.FlavourPos.Line, c.FlavourPos.Col}, Kind: ErrUnsupported,
						Msg: fmt.Sprintf("column %q: VARCHAR(%d) is stored as string(max_length=%d); drop USING %s or the length", c.Name, c.Length, c.Length, c.Flavour)}
				}
			case columnar.Blob:
				ok = c.Flavour == "vlbytes" || c.Flavour == "bytes"
			}
			if !ok {
				return nil, &Error{Pos: Pos{c.FlavourPos.Line, c.FlavourPos.Col}, Kind: ErrUnsupported,
					Msg: fmt.Sprintf("column %q: USING %s does not apply to %s (VARCHAR: utf8, string, dictionary, vlstring; BLOB: vlbytes, bytes)", c.Name, c.Flavour, c.Type)}
			}
		}
	}
	if format == "memory" {
		if err := db.createMemTable(s.Name, schema, rules, s.Keys, true); err != nil {
			return nil, err
		}
		db.notePrimaryKey(s.Name, s.Cols) // describe.go
		return valueRows(nil, nil), nil
	}
	if len(s.Keys) > 0 {
		return nil, &Error{Pos: at, Kind: ErrUnsupported, Msg: "PRIMARY KEY and UNIQUE are enforced on in-memory tables only (CTables have no keys)"}
	}
	dir, err := db.writeDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, s.Name+"."+format)
	unlock, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if _, err := os.Stat(path); err == nil && !s.Replace {
		return nil, &Error{Pos: at, Kind: ErrTableExists, Msg: fmt.Sprintf("%s already exists (use CREATE OR REPLACE TABLE)", path)}
	}
	if err := ctable.CreateEmpty(path, defs, ctable.CreateOptions{}); err != nil {
		return nil, err
	}
	t, err := openPath(path)
	if err != nil {
		return nil, err
	}
	db.registerNew(key, s.Name, t)
	return valueRows(nil, nil), nil
}

// registerNew registers t under name, retiring a table it replaces.
func (db *DB) registerNew(key, name string, t planner.Table) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if old, ok := db.tables[key]; ok {
		db.life.retired = append(db.life.retired, old)
	}
	db.tables[key] = t
	db.names[key] = name
}
