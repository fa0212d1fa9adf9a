package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// What the catalog tells the binder of its tables and views, for the
// catalog's own tables (bind_catalog_tables.go) and (DESCRIBE t).

// RelationLister is a catalog that lists its tables and views.
type RelationLister interface {
	Relations() []RelationInfo
}

// RelationInfo is a table or view of the catalog.
type RelationInfo struct {
	// Database is the database ATTACH made that the relation is in (its
	// Schema is then main), "" for the default database's.
	Database     string
	Schema, Name string
	View, Temp   bool
	SQL          string // a view's query
	Comment      string // COMMENT ON's ("" for none)
	Columns      []ColumnInfo
	PrimaryKey   bool
	Checks       int // CHECK constraints
	Indexes      int
}

// ColumnInfo is a column of a table.
type ColumnInfo struct {
	Name     string
	Type     columnar.Type
	Nullable bool
	Default  string // SQL text, "" for none
	Comment  string // COMMENT ON COLUMN's ("" for none)
	Key      string // PRI, UNI or "" (DESCRIBE's key)
}

// relations is the catalog's list (none when it keeps no list).
func (b *binder) relations() []RelationInfo {
	if rl, ok := b.cat.(RelationLister); ok {
		return rl.Relations()
	}
	return nil
}

// relationKey is a relation's catalog key: its name, s.name outside main
// (db.name in a database ATTACH made).
func relationKey(r RelationInfo) string {
	if r.Database != "" {
		return r.Database + "." + r.Name
	}
	if strings.EqualFold(r.Schema, DefaultSchema) {
		return r.Name
	}
	return r.Schema + "." + r.Name
}
