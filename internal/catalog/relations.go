package catalog

import (
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/sql"
)

// Relations lists the catalog's tables and views with their columns, in
// schema and name order, for the catalog's own tables (duckdb_tables(),
// duckdb_columns(), duckdb_views(), information_schema): sql.RelationLister.
// It reads what the open tables already hold; it opens and reads nothing.
func (c *Catalog) Relations() []sql.RelationInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []sql.RelationInfo
	for key, t := range c.tables {
		r := c.relationInfo(key, c.names[key])
		r.Temp = isTempTable(t)
		r.Comment = c.comment(key)
		cons := Constraints(t)
		schema := t.Schema()
		nullable, keys := make([]bool, len(schema)), make([]columnar.Value, len(schema))
		for i := range schema {
			nullable[i], keys[i] = true, columnar.NullValue(columnar.TVarchar)
		}
		Describe(t, nullable, keys) // as DESCRIBE shows them
		for i, f := range schema {
			col := sql.ColumnInfo{Name: f.Name, Type: f.Type, Nullable: nullable[i]}
			if !keys[i].Null {
				col.Key = keys[i].S
			}
			col.Comment = c.comment(key + "." + strings.ToLower(f.Name))
			if i < len(cons) {
				r.Checks += len(cons[i].Checks)
				if d := cons[i].Default; d != nil {
					col.Default = literalText(*d)
				}
			}
			r.Columns = append(r.Columns, col)
		}
		switch x := t.(type) {
		case *MemTable:
			r.PrimaryKey = slices.Contains(x.primary, true)
			for i, d := range x.Defaults() {
				if i < len(r.Columns) && d.Text != "" {
					r.Columns[i].Default = d.Text
				}
			}
			for _, ix := range c.memIndexes {
				if ix.Table == key {
					r.Indexes++
				}
			}
			// Generated columns at their places among the stored ones.
			for _, g := range x.Generated() {
				if g.At <= len(r.Columns) {
					col := sql.ColumnInfo{Name: g.Name, Type: g.Type, Nullable: true}
					r.Columns = slices.Insert(r.Columns, g.At, col)
				}
			}
		case *ctable.Table:
			r.Indexes = len(x.Indexes())
		}
		out = append(out, r)
	}
	for key, text := range c.views {
		r := c.relationInfo(key, key)
		r.View, r.Temp, r.SQL = true, c.tempViews[key], text
		r.Comment = c.comment(key)
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b sql.RelationInfo) int {
		if c := strings.Compare(a.Schema, b.Schema); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// relationInfo splits a relation's key (s.t, or t of main) into its
// schema and name; name is the name as registered. Guarded by c.mu.
func (c *Catalog) relationInfo(key, name string) sql.RelationInfo {
	for _, s := range c.schemas {
		if prefix := strings.ToLower(s) + "."; strings.HasPrefix(key, prefix) {
			r := sql.RelationInfo{Schema: s, Name: name[min(len(prefix), len(name)):]}
			if d, ok := c.dbs[strings.ToLower(s)]; ok {
				r.Database, r.Schema = d.Name, sql.DefaultSchema // db.t is db.main.t
			}
			return r
		}
	}
	return sql.RelationInfo{Schema: sql.DefaultSchema, Name: name}
}

// literalText is a constant default as SQL: numbers and booleans as they
// print, other values quoted.
func literalText(v columnar.Value) string {
	switch {
	case v.Null:
		return "NULL"
	case v.Type.IsNumeric() || v.Type.ID == columnar.Bool:
		return v.String()
	}
	return "'" + strings.ReplaceAll(v.String(), "'", "''") + "'"
}

// isTempTable reports whether t was made by CREATE TEMP TABLE.
func isTempTable(t any) bool {
	m, ok := t.(*MemTable)
	return ok && m.temp
}
