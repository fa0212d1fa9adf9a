package catalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/sql"
)

// Schemas (CREATE SCHEMA) belong to the catalog and live as long as it,
// as sequences do (sequences.go): a database directory does not keep
// them. A relation of schema s is kept under the key "s.t" in the same
// maps as main's relations (sql's relKey makes the keys), so a schema is
// only a name here: it must exist for a relation to be created in it, and
// dropping it with CASCADE drops every relation whose key it prefixes.

// HasSchema implements sql.SchemaCatalog.
func (c *Catalog) HasSchema(name string) bool {
	if strings.EqualFold(name, sql.DefaultSchema) {
		return true
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.ContainsFunc(c.schemas, func(s string) bool { return strings.EqualFold(s, name) })
}

// Schemas implements sql.SchemaCatalog.
func (c *Catalog) Schemas() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]string{sql.DefaultSchema}, c.schemas...)
}

// CheckSchema reports an error at pos when key (relKey's) names a
// relation of a schema that does not exist: one to create (creates), or
// one to change.
func (c *Catalog) CheckSchema(key string, pos sql.Pos, creates bool) error {
	s, _, ok := strings.Cut(key, ".")
	if !ok || c.HasSchema(s) {
		return nil
	}
	if !creates {
		return &sql.Error{Pos: pos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("table %q does not exist because schema %q does not exist", key, s)}
	}
	return &sql.Error{Pos: pos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("schema %q does not exist (CREATE SCHEMA %s makes it)", s, s)}
}

// CreateSchema runs CREATE [OR REPLACE] SCHEMA [IF NOT EXISTS]; OR
// REPLACE of an existing schema replaces an empty one, as DuckDB (which
// refuses one with relations in it).
func (c *Catalog) CreateSchema(st *sql.CreateSchema) error {
	if c.HasSchema(st.Name) {
		switch {
		case st.IfNotExists:
			return nil
		case !st.Replace || strings.EqualFold(st.Name, sql.DefaultSchema):
			return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("schema %q already exists", st.Name)}
		}
		if err := c.DropSchema(&sql.DropSchema{Name: st.Name, NamePos: st.NamePos}, nil); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.schemas = append(c.schemas, st.Name)
	return nil
}

// DropSchema runs DROP SCHEMA [IF EXISTS] s [CASCADE]: without CASCADE
// the schema must be empty; with it, its tables are dropped by dropTable
// (DROP TABLE's statement, which deletes a table's own files), its views
// and sequences here.
func (c *Catalog) DropSchema(st *sql.DropSchema, dropTable func(key string) error) error {
	if _, ok := c.Database(st.Name); ok {
		return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("cannot drop schema %q: it is an attached database (DETACH %s)", st.Name, st.Name)}
	}
	return c.dropSchema(st, dropTable)
}

// dropSchema is DropSchema of any schema, an attached database's too
// (Detach).
func (c *Catalog) dropSchema(st *sql.DropSchema, dropTable func(key string) error) error {
	if strings.EqualFold(st.Name, sql.DefaultSchema) {
		return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("cannot drop schema %q: it is the database's default schema", st.Name)}
	}
	if !c.HasSchema(st.Name) {
		if st.IfExists {
			return nil
		}
		return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("schema %q does not exist", st.Name)}
	}
	prefix := strings.ToLower(st.Name) + "."
	c.mu.RLock()
	var tables, views, seqs, macros []string
	for k := range c.tables {
		if strings.HasPrefix(k, prefix) {
			tables = append(tables, k)
		}
	}
	for k := range c.views {
		if strings.HasPrefix(k, prefix) {
			views = append(views, k)
		}
	}
	for k := range c.seqs {
		if strings.HasPrefix(k, prefix) {
			seqs = append(seqs, k)
		}
	}
	for k := range c.macros {
		if strings.HasPrefix(k, prefix) {
			macros = append(macros, k)
		}
	}
	c.mu.RUnlock()
	if n := len(tables) + len(views) + len(seqs) + len(macros); n > 0 && !st.Cascade {
		first := slices.Concat(tables, views, seqs, macros)
		slices.Sort(first)
		return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("cannot drop schema %q: it holds %d relations (%q, …); DROP SCHEMA %s CASCADE drops them too", st.Name, n, first[0], st.Name)}
	}
	for _, k := range tables {
		if err := dropTable(k); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range views {
		delete(c.views, k)
		c.clearComments(k)
	}
	for _, k := range macros {
		delete(c.macros, k)
	}
	for _, k := range seqs {
		executor.DropSequence(c.seqs[k])
		delete(c.seqs, k)
		c.forgetSequence(k)
	}
	c.schemas = slices.DeleteFunc(c.schemas, func(s string) bool { return strings.EqualFold(s, st.Name) })
	return nil
}
