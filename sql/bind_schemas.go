package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

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
