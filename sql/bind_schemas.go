package sql

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// Schemas in the binder: a relation of a schema other than main is bound
// under its catalog key (relKey, schema.go) and named by its last part;
// its columns' schema is recorded so that s.t.col can name them.

// schemasColumns are duckdb_schemas()' columns, as DuckDB 1.5 has them.
var schemasColumns = []tableColumn{
	{"oid", columnar.TInt64}, {"database_name", columnar.TVarchar}, {"database_oid", columnar.TInt64},
	{"schema_name", columnar.TVarchar}, {"comment", columnar.TVarchar}, {"tags", columnar.MapOf(columnar.TVarchar, columnar.TVarchar)},
	{"internal", columnar.TBool}, {"sql", columnar.TVarchar},
}

// bindSchemasTable binds FROM duckdb_schemas() to one row per schema:
// the database's (catalog memory: main, internal, then CREATE SCHEMA's)
// and temp's main. DuckDB's system catalog (information_schema,
// pg_catalog) is not b2sql's; the oids are b2sql's own numbering.
func (b *binder) bindSchemasTable(args callexpr.SelectExprs, alias string, at int) (*fromItem, error) {
	if len(args) != 0 {
		return nil, b.arity(at, "duckdb_schemas", "0")
	}
	if alias == "" {
		alias = "duckdb_schemas"
	}
	schemas := []string{DefaultSchema}
	if sc, ok := b.cat.(SchemaCatalog); ok {
		schemas = sc.Schemas()
	}
	str, null := columnar.StringValue, columnar.NullValue(columnar.TVarchar)
	noTags := columnar.Value{Type: schemasColumns[5].typ, Elems: []columnar.Value{}}
	row := func(oid int, db string, dbOID int, name string, internal bool) []columnar.Value {
		return []columnar.Value{columnar.IntValue(columnar.TInt64, int64(oid)), str(db), columnar.IntValue(columnar.TInt64, int64(dbOID)),
			str(name), null, noTags, columnar.BoolValue(internal), null}
	}
	var rows [][]columnar.Value
	for i, s := range schemas {
		rows = append(rows, row(i+2, "memory", 0, s, strings.EqualFold(s, DefaultSchema)))
	}
	rows = append(rows, row(len(schemas)+2, "temp", 1, DefaultSchema, true))
	return b.constTable(alias, "schemas", schemasColumns, rows) // bind_func_table.go
}

// schemaColumns records the schema of the columns of an unaliased
// relation of a schema other than main, whose references may name it:
// s.t.col. (Columns of main are not recorded, to spare every query the
// map: main.t.col names a t of scope none of whose columns is recorded.)
func (b *binder) schemaColumns(cols []planner.Column, schema string) {
	if b.colSchemas == nil {
		b.colSchemas = map[planner.ColID]string{}
	}
	for _, c := range cols {
		b.colSchemas[c.ID] = strings.ToLower(schema)
	}
}

// colSchema is the schema of column c ("main" unless recorded).
func (b *binder) colSchema(c planner.Column) string {
	return cmp.Or(b.colSchemas[c.ID], strings.ToLower(DefaultSchema))
}

// schemaQualified reports whether a column of scope qualified qual lives
// in schema s (s.t.col names it).
func (b *binder) schemaQualified(s, qual string) bool {
	for _, c := range b.scope {
		if strings.EqualFold(c.Table, qual) && b.colSchema(c) == strings.ToLower(s) {
			return true
		}
	}
	return false
}

// schemaColumn resolves s.qual.name (schemaQualified holds): among the
// columns qual.name, the one of schema s (FROM s1.t, s2.t puts two t in
// scope).
func (b *binder) schemaColumn(s, qual, name string, at int) (planner.Expr, error) {
	var found []planner.Column
	for _, col := range b.scope {
		if strings.EqualFold(col.Table, qual) && strings.EqualFold(col.Name, name) && b.colSchema(col) == strings.ToLower(s) {
			found = append(found, col)
		}
	}
	switch len(found) {
	case 1:
		return &planner.ColRef{Col: found[0]}, nil
	case 0:
		return nil, b.errAt(at, ErrUnknownColumn, fmt.Sprintf("unknown column %q", s+"."+qual+"."+name))
	}
	return nil, b.errAt(at, ErrAmbiguousColumn, fmt.Sprintf("column reference %q is ambiguous", s+"."+qual+"."+name))
}

// bindSchemaTable binds the table of key in a schema other than main.
func (b *binder) bindSchemaTable(key, schema, alias string, at int) (*planner.Scan, error) {
	tbl, ok := b.cat.Table(key)
	if !ok {
		if sc, has := b.cat.(SchemaCatalog); !has || !sc.HasSchema(schema) {
			return nil, b.errAt(at, ErrUnknownTable, fmt.Sprintf("table %q does not exist because schema %q does not exist", key, schema))
		}
		return nil, b.errAt(at, ErrUnknownTable, fmt.Sprintf("unknown table %q%s", key, didYouMean(key, b.cat.TableNames())))
	}
	return b.scan(tbl, key, alias), nil
}
