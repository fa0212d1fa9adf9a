package catalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// In-memory databases. ATTACH ':memory:' AS name makes an empty database
// that lives as long as the catalog, as DuckDB's does. b2sql has one
// database per catalog, with schemas (schemas.go), so an attached
// in-memory database is the schema name, marked in memDBs: its tables
// (name.t) are in-memory ones whatever the database's own directory
// (MemoryDB, dml.TableFormat), and DETACH name drops it with everything
// in it. Without AS, DuckDB names it "memory", the name of the database
// it is attached to, which therefore already exists.

// reservedDBs are the names of the databases every session has.
var reservedDBs = []string{"memory", "main", "system", "temp"}

// attachMemory runs ATTACH [OR REPLACE] [IF NOT EXISTS] ':memory:' [AS
// name]. OR REPLACE of an in-memory database keeps it, tables and all, as
// DuckDB 1.5.6 does (the path it would attach again is the same).
func (c *Catalog) attachMemory(s *sql.Attach) error {
	name := s.Alias
	if name == "" {
		name = "memory"
	}
	if slices.Contains(reservedDBs, strings.ToLower(name)) || c.HasSchema(name) {
		switch {
		case s.IfNotExists, s.OrReplace && c.MemoryDB(name):
			return nil
		default:
			return &sql.Error{Pos: s.PathPos, Kind: ErrTableExists, Msg: fmt.Sprintf("cannot attach: a database or schema with name %q already exists", name)}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.schemas = append(c.schemas, name)
	c.memDBs = append(c.memDBs, name)
	return nil
}

// MemoryDB reports whether name is an in-memory database ATTACH made.
func (c *Catalog) MemoryDB(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.ContainsFunc(c.memDBs, func(s string) bool { return strings.EqualFold(s, name) })
}

// Detach runs DETACH [IF EXISTS] name: an in-memory database goes with
// its tables (dropTable drops one by key), views, sequences and macros.
func (c *Catalog) Detach(st *sql.Detach, dropTable func(key string) error) error {
	if !c.MemoryDB(st.Name) {
		switch {
		case st.IfExists:
			return nil
		case slices.Contains(reservedDBs[:2], strings.ToLower(st.Name)):
			return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("cannot detach database %q: it is the default database", st.Name)}
		}
		return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("cannot detach database %q: no database of that name is attached", st.Name)}
	}
	if err := c.DropSchema(&sql.DropSchema{Name: st.Name, NamePos: st.NamePos, Cascade: true}, dropTable); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.memDBs = slices.DeleteFunc(c.memDBs, func(s string) bool { return strings.EqualFold(s, st.Name) })
	return nil
}
