package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// information_schema's views, and SHOW ALL TABLES / SHOW DATABASES, as
// queries over the catalog's tables (bind_catalog_tables.go), with
// DuckDB 1.5's columns and values.

// infoSchemaViews are information_schema's views by name.
var infoSchemaViews = map[string]string{
	"tables": `SELECT database_name AS table_catalog, schema_name AS table_schema, table_name,
	CASE WHEN temporary THEN 'LOCAL TEMPORARY' ELSE 'BASE TABLE' END AS table_type,
	NULL::VARCHAR AS self_referencing_column_name, NULL::VARCHAR AS reference_generation,
	NULL::VARCHAR AS user_defined_type_catalog, NULL::VARCHAR AS user_defined_type_schema, NULL::VARCHAR AS user_defined_type_name,
	'YES' AS is_insertable_into, 'NO' AS is_typed, CASE WHEN temporary THEN 'PRESERVE' END AS commit_action, comment AS "TABLE_COMMENT"
FROM duckdb_tables()
UNION ALL
SELECT database_name, schema_name, view_name, 'VIEW', NULL, NULL, NULL, NULL, NULL, 'NO', 'NO', NULL, comment
FROM duckdb_views()`,
	"columns": `SELECT database_name AS table_catalog, schema_name AS table_schema, table_name, column_name,
	column_index AS ordinal_position, column_default, CASE WHEN is_nullable THEN 'YES' ELSE 'NO' END AS is_nullable,
	data_type, character_maximum_length, NULL::INTEGER AS character_octet_length,
	numeric_precision, numeric_precision_radix, numeric_scale, NULL::INTEGER AS datetime_precision,
	NULL::VARCHAR AS interval_type, NULL::INTEGER AS interval_precision,
	NULL::VARCHAR AS character_set_catalog, NULL::VARCHAR AS character_set_schema, NULL::VARCHAR AS character_set_name,
	NULL::VARCHAR AS collation_catalog, NULL::VARCHAR AS collation_schema, NULL::VARCHAR AS collation_name,
	NULL::VARCHAR AS domain_catalog, NULL::VARCHAR AS domain_schema, NULL::VARCHAR AS domain_name,
	NULL::VARCHAR AS udt_catalog, NULL::VARCHAR AS udt_schema, NULL::VARCHAR AS udt_name,
	NULL::VARCHAR AS scope_catalog, NULL::VARCHAR AS scope_schema, NULL::VARCHAR AS scope_name,
	NULL::BIGINT AS maximum_cardinality, NULL::VARCHAR AS dtd_identifier, NULL::BOOLEAN AS is_self_referencing,
	NULL::BOOLEAN AS is_identity, NULL::VARCHAR AS identity_generation, NULL::VARCHAR AS identity_start,
	NULL::VARCHAR AS identity_increment, NULL::VARCHAR AS identity_maximum, NULL::VARCHAR AS identity_minimum,
	NULL::BOOLEAN AS identity_cycle, NULL::VARCHAR AS is_generated, NULL::VARCHAR AS generation_expression,
	NULL::BOOLEAN AS is_updatable, comment AS "COLUMN_COMMENT"
FROM duckdb_columns()`,
	"schemata": `SELECT database_name AS catalog_name, schema_name, 'duckdb' AS schema_owner,
	NULL::VARCHAR AS default_character_set_catalog, NULL::VARCHAR AS default_character_set_schema,
	NULL::VARCHAR AS default_character_set_name, sql AS sql_path
FROM duckdb_schemas()`,
}

// showAllTablesSQL is SHOW ALL TABLES: every table and view, with its
// columns' names and types.
const showAllTablesSQL = `SELECT database_name AS database, schema_name AS schema, table_name AS name,
	list(column_name ORDER BY ordinal_position) AS column_names, list(data_type ORDER BY ordinal_position) AS column_types,
	bool_or(table_catalog = 'temp') AS temporary
FROM (SELECT table_catalog AS database_name, table_schema AS schema_name, table_name, column_name, ordinal_position, data_type, table_catalog
	FROM information_schema.columns)
GROUP BY ALL ORDER BY ALL`

// showQueries are the SHOW statements that are queries over the catalog's
// tables, by what they show (SHOW TABLES is the engine's).
var showQueries = map[string]string{"ALL TABLES": showAllTablesSQL, "DATABASES": showDatabasesSQL}

// showDatabasesSQL is SHOW DATABASES: the databases a user made or
// attached (DuckDB does not list temp).
const showDatabasesSQL = `SELECT database_name FROM duckdb_databases() WHERE NOT internal ORDER BY database_name`

func init() {
	scalar := func(name, desc, example string, ret columnar.Type, params ...string) *function.Set {
		o := function.Overload{Params: params, Returns: ret}
		for range params {
			o.Args = append(o.Args, function.Any)
		}
		return &function.Set{Name: name, Kind: function.Scalar, Categories: []string{"system"}, CustomBind: true,
			Description: desc, Examples: []string{example}, Overloads: []function.Overload{o}}
	}
	function.Register(
		scalar("current_database", "The name of the current database: memory, or the one USE chose", "current_database()", columnar.TVarchar),
		scalar("current_schema", "The name of the current schema: main, or the one USE chose", "current_schema()", columnar.TVarchar),
		scalar("current_schemas", "The schemas of the search path (with the implicit ones when the argument is true)", "current_schemas(true)",
			columnar.ListOf(columnar.TVarchar), "include_implicit"),
	)
}

// bindCatalogName binds current_database(), current_schema() and
// current_schemas(implicit) to their constants: the database and schema
// USE chose (memory and main by default); the search path is main
// (DuckDB adds main twice more and pg_catalog as implicit).
func bindCatalogName(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	want := "0"
	if name == "current_schemas" {
		want = "1"
	}
	if (want == "0") != (len(args) == 0) || len(args) > 1 {
		return nil, true, b.arity(at, name, want)
	}
	path := pathOf(b.cat) // USE's
	switch name {
	case "current_database":
		db := "memory"
		if path.Database != "" {
			db = path.Database
		}
		return &planner.Const{Val: columnar.StringValue(db)}, true, nil
	case "current_schema":
		schema := DefaultSchema
		if path.Schema != "" {
			schema = path.Schema
		}
		return &planner.Const{Val: columnar.StringValue(schema)}, true, nil
	}
	x, err := b.bindExpr(args[0], c)
	if err != nil {
		return nil, true, err
	}
	k, ok := planner.FoldExpr(x).(*planner.Const)
	if !ok || k.Val.Null || k.Val.Type.ID != columnar.Bool {
		return nil, true, b.typeErr(args[0], c, "current_schemas expects a constant BOOLEAN")
	}
	schemas := []string{DefaultSchema}
	if k.Val.Bool() {
		schemas = []string{DefaultSchema, DefaultSchema, DefaultSchema, "pg_catalog"}
	}
	l := columnar.Value{Type: columnar.ListOf(columnar.TVarchar), Elems: []columnar.Value{}}
	for _, s := range schemas {
		l.Elems = append(l.Elems, columnar.StringValue(s))
	}
	return &planner.Const{Val: l}, true, nil
}
