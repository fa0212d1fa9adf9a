package catalog

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// Attached databases. b2sql has one database per catalog, with schemas
// (schemas.go), so a database ATTACH makes is the schema of its name,
// marked in dbs with where its tables live: in memory (ATTACH ':memory:'
// AS name), or in a directory (ATTACH 'dir' AS name), whose table files
// are its tables name.t and where CREATE TABLE name.t writes name.t's
// file (dir/t.b2d). They live as long as the catalog: as DuckDB's ATTACH,
// nothing of them is kept when the database is opened again. DETACH
// forgets one: an in-memory database's tables go with it, a directory's
// stay in their files.

// Database is an attached database.
type Database struct {
	Name     string // as ATTACH wrote it
	Dir      string // its directory, "" for an in-memory database
	ReadOnly bool   // ATTACH … (READ_ONLY): writes to its tables are refused
}

// reservedDBs are the names of the databases every session has.
var reservedDBs = []string{"memory", "main", "system", "temp"}

// Database is the attached database name (any case).
func (c *Catalog) Database(name string) (Database, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.dbs[strings.ToLower(name)]
	return d, ok
}

// Databases lists the attached databases, by name.
func (c *Catalog) Databases() []Database {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := slices.Collect(maps.Values(c.dbs))
	slices.SortFunc(out, func(a, b Database) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	return out
}

// addDatabase records d as attached, with its schema and its tables
// (by name in the database, already open), under one lock; the caller
// checked that the name is free.
func (c *Catalog) addDatabase(d Database, tables map[string]planner.Table) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dbs == nil {
		c.dbs = map[string]Database{}
	}
	c.dbs[strings.ToLower(d.Name)] = d
	c.schemas = append(c.schemas, d.Name)
	for n, t := range tables {
		name := d.Name + "." + n
		c.tables[strings.ToLower(name)] = t
		c.names[strings.ToLower(name)] = name
		c.clearComments(strings.ToLower(name))
	}
}

// attachTaken is the error of an ATTACH whose name is taken: by a
// database (reserved or attached) or by a schema, whose names b2sql
// shares with its databases; nil when the name is free.
func (c *Catalog) attachTaken(name string, at sql.Pos) error {
	_, attached := c.Database(name)
	if slices.Contains(reservedDBs, strings.ToLower(name)) || attached {
		return &sql.Error{Pos: at, Kind: ErrTableExists, Msg: fmt.Sprintf("failed to attach database: database with name %q already exists", name)}
	}
	if c.HasSchema(name) {
		return &sql.Error{Pos: at, Kind: ErrTableExists, Msg: fmt.Sprintf("failed to attach database: a schema with name %q already exists (b2sql's schemas and attached databases share their names)", name)}
	}
	return nil
}

// TableDir is the directory where the file of a new table under key (s.t
// or t) goes: its attached database's ("" for an in-memory one), else
// the database's directory ("" when it has none).
func (c *Catalog) TableDir(key string) string {
	if s, _, ok := strings.Cut(key, "."); ok {
		if d, ok := c.Database(s); ok {
			return d.Dir
		}
	}
	return c.Dir()
}

// TablePath is the file of a new file table under key in format (b2d,
// b2z, parquet): in its attached database's directory under the table's
// own name (db.t is dir/t.b2d), else in WriteDir under the key.
func (c *Catalog) TablePath(key, format string) (string, error) {
	if s, t, ok := strings.Cut(key, "."); ok {
		if d, ok := c.Database(s); ok && d.Dir != "" {
			return filepath.Join(d.Dir, t+"."+format), nil
		}
	}
	dir, err := c.WriteDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, key+"."+format), nil
}

// CheckWritable refuses, as DuckDB does, a statement of type verb
// (INSERT, CREATE, …) that would change the relation under key of a
// database attached READ_ONLY.
func (c *Catalog) CheckWritable(key string, pos sql.Pos, verb string) error {
	s, _, ok := strings.Cut(key, ".")
	if !ok {
		return nil
	}
	if d, ok := c.Database(s); ok && d.ReadOnly {
		return &sql.Error{Pos: pos, Kind: ErrReadOnly, Msg: fmt.Sprintf("cannot execute statement of type %q on database %q which is attached in read-only mode", verb, d.Name)}
	}
	return nil
}

// Detach runs DETACH [IF EXISTS] name: an in-memory database goes with
// its tables (dropTable drops one by key); a directory's tables are
// unregistered, their files left as they are; views, sequences and
// macros of either go.
func (c *Catalog) Detach(st *sql.Detach, dropTable func(key string) error) error {
	d, ok := c.Database(st.Name)
	if !ok {
		switch {
		case st.IfExists:
			return nil
		case slices.Contains(reservedDBs[:2], strings.ToLower(st.Name)):
			return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("cannot detach database %q: it is the default database", st.Name)}
		}
		return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("cannot detach database %q: no database of that name is attached", st.Name)}
	}
	if d.Dir != "" {
		dropTable = func(key string) error {
			c.Drop(key) // the file stays: it is the directory's
			return nil
		}
	}
	if err := c.dropSchema(&sql.DropSchema{Name: st.Name, NamePos: st.NamePos, Cascade: true}, dropTable); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.dbs, strings.ToLower(st.Name))
	return nil
}

// AttachedDatabases implements sql.DatabaseLister.
func (c *Catalog) AttachedDatabases() []sql.DatabaseInfo {
	var out []sql.DatabaseInfo
	for _, d := range c.Databases() {
		out = append(out, sql.DatabaseInfo{Name: d.Name, Path: d.Dir, ReadOnly: d.ReadOnly})
	}
	return out
}
