package catalog

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// Attach runs ATTACH: 'path' [AS name] [(READ_ONLY)] attaches the
// directory path as the database name (databases.go), by default the
// path's file name up to its first dot, as DuckDB names it. Its tables
// are its table files (blosc2, Parquet, CSV); a missing directory is
// created, as DuckDB's ATTACH of a missing file makes a database: b2sql's
// database is a directory, so ATTACH 'new.db' makes the directory new.db.
// A DuckDB database file is refused: b2sql does not read DuckDB's format.
//
// ATTACH ':memory:' AS name is an in-memory database (attachMemory).
//
// ATTACH of one table ('events.b2d', 'x.parquet', …) registers that
// table in the default database under the alias, or under the file's
// name without its extension.
func (c *Catalog) Attach(s *sql.Attach) error {
	if s.Path == sql.MemoryPath {
		return c.attachMemory(s)
	}
	at := s.PathPos
	path, err := c.Confine(s.Path)
	if err != nil {
		return err
	}
	if Kind(path) != "" {
		name := s.Alias
		if name == "" {
			base := filepath.Base(strings.TrimRight(path, `/\`))
			name = strings.TrimSuffix(base, filepath.Ext(base))
		}
		if err := c.Register(name, path); err != nil {
			return &sql.Error{Pos: at, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("ATTACH: %v", err)}
		}
		return nil
	}
	return c.attachDir(s, path)
}

// attachMemory runs ATTACH [OR REPLACE] [IF NOT EXISTS] ':memory:' [AS
// name]. OR REPLACE of an in-memory database keeps it, tables and all, as
// DuckDB 1.5.6 does (the path it would attach again is the same).
// Without AS, DuckDB names it "memory", the name of the database it is
// attached to, which therefore already exists.
func (c *Catalog) attachMemory(s *sql.Attach) error {
	name := s.Alias
	if name == "" {
		name = "memory"
	}
	if err := c.attachTaken(name, s.PathPos); err != nil {
		if d, ok := c.Database(name); s.IfNotExists || s.OrReplace && ok && d.Dir == "" {
			return nil
		}
		return err
	}
	c.addDatabase(Database{Name: name, ReadOnly: s.ReadOnly}, nil)
	return nil
}

// attachDir runs ATTACH 'dir' [AS name] of the directory path (confined).
func (c *Catalog) attachDir(s *sql.Attach, path string) error {
	at := s.PathPos
	name := s.Alias
	if name == "" {
		name = stem(s.Path)
	}
	if err := c.attachTaken(name, at); err != nil {
		if s.IfNotExists {
			return nil
		}
		return err
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // as DuckDB shows it (duckdb_databases().path)
	}
	for _, d := range c.Databases() {
		if d.Dir == path {
			return &sql.Error{Pos: at, Kind: ErrTableExists, Msg: fmt.Sprintf("unique file handle conflict: cannot attach %q: the directory %q is already attached by database %q", name, path, d.Name)}
		}
	}
	readOnly := s.ReadOnly || c.readOnly
	st, err := os.Stat(path)
	switch {
	case os.IsNotExist(err) && readOnly:
		return &sql.Error{Pos: at, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("cannot open database %q in read-only mode: database does not exist", path)}
	case os.IsNotExist(err):
		if err := os.Mkdir(path, 0o755); err != nil {
			return &sql.Error{Pos: at, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("ATTACH: %v", err)}
		}
	case err != nil:
		return &sql.Error{Pos: at, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("ATTACH: %v", err)}
	case !st.IsDir() && isDuckDBFile(path):
		return &sql.Error{Pos: at, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("ATTACH: %s is a DuckDB database file, which b2sql does not read: a b2sql database is a directory of blosc2 (.b2d, .b2z), Parquet and CSV files", s.Path)}
	case !st.IsDir():
		return &sql.Error{Pos: at, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("ATTACH: %s is not a directory: a b2sql database is a directory of blosc2 (.b2d, .b2z), Parquet and CSV files (query a file with FROM '%s')", s.Path, s.Path)}
	}
	tables, err := c.openDirTables(path)
	if err != nil {
		return &sql.Error{Pos: at, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("ATTACH: %v", err)}
	}
	c.addDatabase(Database{Name: name, Dir: path, ReadOnly: readOnly}, tables)
	return nil
}

// openDirTables opens the tables of an attached directory: its blosc2,
// Parquet and CSV files (.csv, .tsv, compressed or not), by file name up
// to the extension. JSON and other text files are read where a query
// names them, as a database directory's (RegisterDir). On an error the
// tables opened go back to the database to close.
func (c *Catalog) openDirTables(dir string) (map[string]planner.Table, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]planner.Table{}
	for _, e := range entries {
		name := e.Name()
		if !dirTable(name) {
			continue
		}
		t, err := c.OpenConfined(filepath.Join(dir, name))
		if err != nil {
			db := c.db()
			db.mu.Lock()
			for _, t := range out {
				db.life.retired = append(db.life.retired, t)
			}
			db.mu.Unlock()
			return nil, fmt.Errorf("opening %s: %w", name, err)
		}
		out[stem(name)] = t
	}
	return out, nil
}

// dirTable reports whether the file name is a table of an attached
// directory.
func dirTable(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false // hidden, such as a transaction's staged versions
	}
	switch textKind(name) {
	case "":
		return Kind(name) != ""
	case "csv":
		ext := strings.ToLower(name[strings.IndexByte(name, '.'):])
		return strings.HasPrefix(ext, ".csv") || strings.HasPrefix(ext, ".tsv")
	}
	return false
}

// stem is a path's file name up to its first dot (DuckDB's name for a
// database attached without AS, and a table's name in an attached
// directory).
func stem(path string) string {
	base := filepath.Base(strings.TrimRight(path, `/\`))
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}

// isDuckDBFile reports whether the file at path starts as a DuckDB
// database does: the magic "DUCK" at byte 8, after the checksum.
func isDuckDBFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [12]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false
	}
	return bytes.Equal(head[8:], []byte("DUCK"))
}

// Mount makes dir the database's own directory: every table file in it
// is registered in the default database (as Open does for a directory)
// and CREATE TABLE writes there; a missing directory is created. The Go
// API's DB.Attach and the command line's directory arguments mount; the
// ATTACH statement attaches a named database instead.
func (c *Catalog) Mount(dir string) error {
	path, err := c.Confine(dir)
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if os.IsNotExist(err) && !c.readOnly {
		if err = os.MkdirAll(path, 0o755); err == nil {
			st, err = os.Stat(path)
		}
	}
	if err != nil {
		return fmt.Errorf("b2sql: attach: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("b2sql: attach: %s is not a directory", dir)
	}
	if err := c.RegisterDir(path); err != nil {
		return err
	}
	c.SetDir(path)
	return nil
}
