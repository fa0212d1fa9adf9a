package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// The catalog's own tables, as DuckDB 1.5 has them: duckdb_tables(),
// duckdb_columns(), duckdb_views() and duckdb_databases(), one row per
// relation, column or database of what the catalog lists
// (RelationLister); information_schema's views and SHOW ALL TABLES are
// queries over them (catalog_views.go). The oids are b2sql's own
// numbering; the database is "memory" (temporary relations "temp"), or
// the one ATTACH made that holds the relation.

// catalogTableSet registers a catalog table function of no arguments,
// bound by the binder (CustomBind).
func catalogTableSet(name, desc string) *function.Set {
	return &function.Set{Name: name, Kind: function.Table, Categories: []string{"table"}, CustomBind: true,
		Description: desc, Examples: []string{name + "()"}, Overloads: []function.Overload{{}}}
}

func init() {
	table := catalogTableSet
	function.Register(
		table("duckdb_tables", "The tables, one row each"),
		table("duckdb_columns", "The columns of the tables, one row each"),
		table("duckdb_views", "The views, one row each"),
		table("duckdb_databases", "The databases: memory, temp and the ones ATTACH made"),
	)
}

// dbOf is the database relation r is in, and its oid: temp, memory or
// the database ATTACH made (oids from 2 in the order duckdb_databases()
// lists them).
func (b *binder) dbOf(r RelationInfo) (string, int64) {
	switch {
	case r.Temp:
		return "temp", 1
	case r.Database != "":
		for i, d := range b.attachedDatabases() {
			if strings.EqualFold(d.Name, r.Database) {
				return d.Name, int64(2 + i)
			}
		}
	}
	return "memory", 0
}

// textOrNull is s as VARCHAR, NULL when s is "" (no comment, no default).
func textOrNull(s string) columnar.Value {
	if s == "" {
		return columnar.NullValue(columnar.TVarchar)
	}
	return columnar.StringValue(s)
}

var noTags = columnar.Value{Type: columnar.MapOf(columnar.TVarchar, columnar.TVarchar), Elems: []columnar.Value{}}

// catalogTables binds duckdb_tables(), duckdb_columns(), duckdb_views()
// and duckdb_databases() (fn) to their rows, as constants.
func (b *binder) catalogTables(fn string, args callexpr.SelectExprs, alias string, at int) (*fromItem, error) {
	if len(args) != 0 {
		return nil, b.arity(at, fn, "0")
	}
	if alias == "" {
		alias = fn
	}
	str, null, text := columnar.StringValue, columnar.NullValue(columnar.TVarchar), textOrNull
	i64 := func(n int) columnar.Value { return columnar.IntValue(columnar.TInt64, int64(n)) }
	i32 := func(n int) columnar.Value { return columnar.IntValue(columnar.TInt32, int64(n)) }
	nullInt := columnar.NullValue(columnar.TInt32)
	v, bl := columnar.TVarchar, columnar.TBool
	var cols []tableColumn
	var rows [][]columnar.Value
	rels := b.relations()
	oid := func(k int) columnar.Value { return i64(1000 + k) }
	switch fn {
	case "duckdb_tables":
		cols = []tableColumn{{"database_name", v}, {"database_oid", columnar.TInt64}, {"schema_name", v}, {"schema_oid", columnar.TInt64},
			{"table_name", v}, {"table_oid", columnar.TInt64}, {"comment", v}, {"tags", noTags.Type}, {"internal", bl}, {"temporary", bl},
			{"has_primary_key", bl}, {"estimated_size", columnar.TInt64}, {"column_count", columnar.TInt64}, {"index_count", columnar.TInt64},
			{"check_constraint_count", columnar.TInt64}, {"sql", v}}
		for k, r := range rels {
			if r.View {
				continue
			}
			db, dbOID := b.dbOf(r)
			rows = append(rows, []columnar.Value{str(db), i64(int(dbOID)), str(r.Schema), i64(2), str(r.Name), oid(k), text(r.Comment), noTags,
				columnar.BoolValue(false), columnar.BoolValue(r.Temp), columnar.BoolValue(r.PrimaryKey), columnar.NullValue(columnar.TInt64),
				i64(len(r.Columns)), i64(r.Indexes), i64(r.Checks), str(createTableText(r))})
		}
	case "duckdb_columns":
		cols = []tableColumn{{"database_name", v}, {"database_oid", columnar.TInt64}, {"schema_name", v}, {"schema_oid", columnar.TInt64},
			{"table_name", v}, {"table_oid", columnar.TInt64}, {"column_name", v}, {"column_index", columnar.TInt32}, {"comment", v},
			{"internal", bl}, {"column_default", v}, {"is_nullable", bl}, {"data_type", v}, {"data_type_id", columnar.TInt64},
			{"character_maximum_length", columnar.TInt32}, {"numeric_precision", columnar.TInt32}, {"numeric_precision_radix", columnar.TInt32},
			{"numeric_scale", columnar.TInt32}}
		for k, r := range rels {
			db, dbOID := b.dbOf(r)
			if r.View {
				r.Columns = b.viewColumns(r.Name)
			}
			for i, c := range r.Columns {
				def := null
				if c.Default != "" {
					def = str(c.Default)
				}
				prec, radix, scale := nullInt, nullInt, nullInt
				if p, rdx, s, ok := numericShape(c.Type); ok {
					prec, radix, scale = i32(p), i32(rdx), i32(s)
				}
				rows = append(rows, []columnar.Value{str(db), i64(int(dbOID)), str(r.Schema), i64(2), str(r.Name), oid(k), str(c.Name), i32(i + 1), text(c.Comment),
					columnar.BoolValue(false), def, columnar.BoolValue(c.Nullable), str(c.Type.String()), i64(duckTypeID(c.Type)),
					nullInt, prec, radix, scale})
			}
		}
	case "duckdb_views":
		cols = []tableColumn{{"database_name", v}, {"database_oid", columnar.TInt64}, {"schema_name", v}, {"schema_oid", columnar.TInt64},
			{"view_name", v}, {"view_oid", columnar.TInt64}, {"comment", v}, {"tags", noTags.Type}, {"internal", bl}, {"temporary", bl},
			{"column_count", columnar.TInt64}, {"sql", v}, {"is_bound", bl}}
		for k, r := range rels {
			if !r.View {
				continue
			}
			db, dbOID := b.dbOf(r)
			n, bound := columnar.NullValue(columnar.TInt64), false
			if bd, err := b.bindText("SELECT * FROM " + quoteIdent(r.Name)); err == nil {
				n, bound = i64(len(bd.Names)), true
			}
			rows = append(rows, []columnar.Value{str(db), i64(int(dbOID)), str(r.Schema), i64(2), str(r.Name), oid(k), text(r.Comment), noTags,
				columnar.BoolValue(false), columnar.BoolValue(r.Temp), n, str(fmt.Sprintf("CREATE VIEW %s AS %s;", r.Name, r.SQL)), columnar.BoolValue(bound)})
		}
	case "duckdb_databases":
		cols = []tableColumn{{"database_name", v}, {"database_oid", columnar.TInt64}, {"path", v}, {"comment", v}, {"tags", noTags.Type},
			{"internal", bl}, {"type", v}, {"readonly", bl}, {"encrypted", bl}, {"cipher", v}, {"options", noTags.Type}}
		for _, db := range []string{"memory", "temp"} {
			rows = append(rows, []columnar.Value{str(db), i64(map[string]int{"memory": 0, "temp": 1}[db]), null, null, noTags,
				columnar.BoolValue(db == "temp"), str("duckdb"), columnar.BoolValue(false), columnar.BoolValue(false), null, noTags})
		}
		// The databases ATTACH made: an in-memory one is DuckDB's kind,
		// a directory b2sql's own.
		for i, d := range b.attachedDatabases() {
			path, kind := text(d.Path), "b2sql"
			if d.Path == "" {
				kind = "duckdb"
			}
			rows = append(rows, []columnar.Value{str(d.Name), i64(2 + i), path, null, noTags,
				columnar.BoolValue(false), str(kind), columnar.BoolValue(d.ReadOnly), columnar.BoolValue(false), null, noTags})
		}
	}
	return b.constTable(alias, "catalog", cols, rows) // bind_func_table.go
}

// viewColumns are the columns of view name (nullable, without default),
// none when its query does not bind now.
func (b *binder) viewColumns(name string) []ColumnInfo {
	bd, err := b.bindText("SELECT * FROM " + quoteIdent(name))
	if err != nil {
		return nil
	}
	var cols []ColumnInfo
	for i, f := range bd.Root.Schema() {
		cols = append(cols, ColumnInfo{Name: bd.Names[i], Type: f.Type, Nullable: true})
	}
	return cols
}

// createTableText is CREATE TABLE name(col type [NOT NULL] [DEFAULT(x)],
// …); as DuckDB shows a table's sql.
func createTableText(r RelationInfo) string {
	var sb strings.Builder
	sb.WriteString("CREATE TABLE ")
	if r.Database != "" {
		sb.WriteString(columnar.QuoteIdent(r.Database) + ".")
	} else if r.Schema != DefaultSchema {
		sb.WriteString(columnar.QuoteIdent(r.Schema) + ".")
	}
	sb.WriteString(columnar.QuoteIdent(r.Name) + "(")
	for i, c := range r.Columns {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(columnar.QuoteIdent(c.Name) + " " + c.Type.String())
		if !c.Nullable {
			sb.WriteString(" NOT NULL")
		}
		if c.Default != "" {
			sb.WriteString(" DEFAULT(" + c.Default + ")")
		}
	}
	sb.WriteString(");")
	return sb.String()
}

// numericShape is DuckDB's numeric_precision, its radix and the scale of
// a number type; ok is false for the others (and the unsigned integers,
// which DuckDB leaves NULL too).
func numericShape(t columnar.Type) (prec, radix, scale int, ok bool) {
	switch t.ID {
	case columnar.Int8:
		return 8, 2, 0, true
	case columnar.Int16:
		return 16, 2, 0, true
	case columnar.Int32:
		return 32, 2, 0, true
	case columnar.Int64:
		return 64, 2, 0, true
	case columnar.Hugeint:
		return 128, 2, 0, true
	case columnar.Float32:
		return 24, 2, 0, true
	case columnar.Float64:
		return 53, 2, 0, true
	case columnar.Decimal, columnar.Decimal128:
		return int(t.Precision), 10, int(t.Scale), true
	}
	return 0, 0, 0, false
}

// duckTypeIDs are DuckDB's LogicalTypeId of each type (duckdb_columns'
// data_type_id); a type not listed is UNKNOWN (2).
var duckTypeIDs = map[columnar.TypeID]int{
	columnar.Null:        1,
	columnar.Bool:        10,
	columnar.Int8:        11,
	columnar.Int16:       12,
	columnar.Int32:       13,
	columnar.Int64:       14,
	columnar.Date:        15,
	columnar.Time:        16,
	columnar.TimestampS:  17,
	columnar.TimestampMS: 18,
	columnar.Timestamp:   19,
	columnar.TimestampNS: 20,
	columnar.Decimal:     21,
	columnar.Decimal128:  21,
	columnar.Float32:     22,
	columnar.Float64:     23,
	columnar.Varchar:     25,
	columnar.Blob:        26,
	columnar.Interval:    27,
	columnar.Uint8:       28,
	columnar.Uint16:      29,
	columnar.Uint32:      30,
	columnar.Uint64:      31,
	columnar.TimestampTZ: 32,
	columnar.TimeTZ:      34,
	columnar.Uhugeint:    49,
	columnar.Hugeint:     50,
	columnar.Uuid:        54,
	columnar.Geometry:    60,
	columnar.Struct:      100,
	columnar.List:        101,
	columnar.Map:         102,
	columnar.Enum:        104,
}

// duckTypeID is DuckDB's LogicalTypeId of a type.
func duckTypeID(t columnar.Type) int {
	if id, ok := duckTypeIDs[t.ID]; ok {
		return id
	}
	return 2 // UNKNOWN
}
