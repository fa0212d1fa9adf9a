package b2sql

import (
	"context"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/sql"
)

// describeColumns are DESCRIBE's columns, DuckDB's: the name and type of
// each column, whether it may hold NULL ("YES" or "NO"), its key ("PRI"
// for a PRIMARY KEY column, "UNI" for one in a UNIQUE key, else NULL),
// its default (b2sql columns have none: NULL) and extra (NULL).
var describeColumns = []Column{
	{Name: "column_name", Type: columnar.TVarchar}, {Name: "column_type", Type: columnar.TVarchar},
	{Name: "null", Type: columnar.TVarchar}, {Name: "key", Type: columnar.TVarchar},
	{Name: "default", Type: columnar.TVarchar}, {Name: "extra", Type: columnar.TVarchar},
}

// describe runs DESCRIBE table or DESCRIBE query. The columns are those of
// the bound query (DESCRIBE t is SELECT * FROM t); a table's declared
// constraints (NOT NULL, keys) fill null and key, as in DuckDB, where a
// query's columns and a file's are all nullable and keyless.
func (db *DB) describe(ctx context.Context, d *sql.Describe, args []columnar.Value) (*Rows, error) {
	bound, err := db.bind(d.Query, args)
	if err != nil {
		return nil, err
	}
	schema := bound.Root.Schema()
	nullable := make([]bool, len(schema))
	keys := make([]columnar.Value, len(schema))
	for i := range schema {
		nullable[i], keys[i] = true, columnar.NullValue(columnar.TVarchar)
	}
	if d.Table != "" {
		if t, ok := (catalog{db}).Table(d.Table); ok && len(t.Schema()) == len(schema) {
			db.tableConstraints(t, nullable, keys)
		}
	}
	vals := make([][]columnar.Value, len(schema))
	for i, c := range schema {
		null := "YES"
		if !nullable[i] {
			null = "NO"
		}
		none := columnar.NullValue(columnar.TVarchar)
		vals[i] = []columnar.Value{columnar.StringValue(bound.Names[i]), columnar.StringValue(c.Type.String()),
			columnar.StringValue(null), keys[i], none, none}
	}
	return valueRows(describeColumns, vals), nil
}

// tableConstraints sets nullable[i] false for a column declared NOT NULL
// and keys[i] to "PRI" or "UNI" for a key column, for the tables that
// declare them: in-memory tables and CTables (whose schema says which
// columns are nullable).
func (db *DB) tableConstraints(t any, nullable []bool, keys []columnar.Value) {
	var rules []ctable.Rules
	switch x := t.(type) {
	case *memTable:
		rules = x.rules
		for _, key := range x.keys {
			for _, c := range key {
				if keys[c].Null {
					keys[c] = columnar.StringValue("UNI")
				}
			}
		}
		for c, pk := range x.primary {
			if pk {
				keys[c] = columnar.StringValue("PRI")
			}
		}
	case *ctable.Table:
		rules = x.Rules()
	}
	for i, r := range rules {
		if i < len(nullable) && !r.Nullable {
			nullable[i] = false
		}
	}
}

// notePrimaryKey records which columns of the in-memory table name (just
// created from cols) form its PRIMARY KEY, for DESCRIBE.
func (db *DB) notePrimaryKey(name string, cols []sql.ColumnDef) {
	var primary []bool
	for i, c := range cols {
		if c.PrimaryKey {
			if primary == nil {
				primary = make([]bool, len(cols))
			}
			primary[i] = true
		}
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if t, ok := db.tables[strings.ToLower(name)].(*memTable); ok {
		t.primary = primary
	}
}
