package sql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// duckdb_sequences(), duckdb_indexes() and duckdb_types(), as DuckDB 1.5
// has them: one row per CREATE SEQUENCE / CREATE INDEX / CREATE TYPE of
// the catalog (ObjectLister), and for duckdb_types() also one row per
// built-in type name b2sql knows, in each database (internal = true).
// The oids are b2sql's own numbering, as in bind_catalog_tables.go.

func init() {
	table := catalogTableSet // bind_catalog_tables.go
	function.Register(
		table("duckdb_sequences", "The sequences, one row each, with their state"),
		table("duckdb_indexes", "The indexes, one row each"),
		table("duckdb_types", "The built-in type names and the CREATE TYPE types, one row each"),
	)
}

// catalogObjects binds duckdb_sequences(), duckdb_indexes() and
// duckdb_types() (fn) to their rows, as constants.
func (b *binder) catalogObjects(fn string, args callexpr.SelectExprs, alias string, at int) (*fromItem, error) {
	if len(args) != 0 {
		return nil, b.arity(at, fn, "0")
	}
	if alias == "" {
		alias = fn
	}
	str, text := columnar.StringValue, textOrNull // bind_catalog_tables.go
	i64 := func(n int64) columnar.Value { return columnar.IntValue(columnar.TInt64, n) }
	nullInt := columnar.NullValue(columnar.TInt64)
	boolean := columnar.BoolValue
	v, bl, big := columnar.TVarchar, columnar.TBool, columnar.TInt64
	head := []tableColumn{{"database_name", v}, {"database_oid", big}, {"schema_name", v}, {"schema_oid", big}}
	headRow := func(temp bool, schema string) []columnar.Value {
		db, dbOID := b.dbOf(RelationInfo{Temp: temp})
		return []columnar.Value{str(db), i64(dbOID), str(schema), i64(2)}
	}
	objs := b.objects()
	var cols []tableColumn
	var rows [][]columnar.Value
	switch fn {
	case "duckdb_sequences":
		cols = append(head, tableColumn{"sequence_name", v}, tableColumn{"sequence_oid", big}, tableColumn{"comment", v},
			tableColumn{"tags", noTags.Type}, tableColumn{"temporary", bl}, tableColumn{"start_value", big}, tableColumn{"min_value", big},
			tableColumn{"max_value", big}, tableColumn{"increment_by", big}, tableColumn{"cycle", bl}, tableColumn{"last_value", big},
			tableColumn{"sql", v})
		for k, s := range objs.Sequences() {
			last := nullInt
			if s.Used {
				last = i64(s.Last)
			}
			rows = append(rows, append(headRow(s.Temp, s.Schema), str(s.Name), i64(int64(2000+k)), text(s.Comment), noTags,
				boolean(s.Temp), i64(s.Start), i64(s.Min), i64(s.Max), i64(s.Incr), boolean(s.Cycle), last, str(createSequenceText(s))))
		}
	case "duckdb_indexes":
		cols = append(head, tableColumn{"index_name", v}, tableColumn{"index_oid", big}, tableColumn{"table_name", v},
			tableColumn{"table_oid", big}, tableColumn{"comment", v}, tableColumn{"tags", noTags.Type}, tableColumn{"is_unique", bl},
			tableColumn{"is_primary", bl}, tableColumn{"expressions", v}, tableColumn{"sql", v})
		tableOIDs := map[string]int64{}
		for k, r := range b.relations() {
			tableOIDs[strings.ToLower(relationKey(r))] = int64(1000 + k) // duckdb_tables()' table_oid
		}
		for k, ix := range objs.Indexes() {
			tableOID, ok := tableOIDs[strings.ToLower(relationKey(RelationInfo{Schema: ix.Schema, Name: ix.Table}))]
			toid := nullInt
			if ok {
				toid = i64(tableOID)
			}
			rows = append(rows, append(headRow(false, ix.Schema), text(ix.Name), i64(int64(3000+k)), str(ix.Table), toid, text(ix.Comment),
				noTags, boolean(ix.Unique), boolean(false), str("["+strings.Join(ix.Columns, ", ")+"]"), str(createIndexText(ix))))
		}
	case "duckdb_types":
		cols = append(head, tableColumn{"type_oid", big}, tableColumn{"type_name", v}, tableColumn{"type_size", big},
			tableColumn{"logical_type", v}, tableColumn{"type_category", v}, tableColumn{"comment", v}, tableColumn{"tags", noTags.Type},
			tableColumn{"internal", bl}, tableColumn{"labels", columnar.ListOf(v)})
		typeRow := func(temp bool, schema string, oid columnar.Value, name string, t columnar.Type, comment string, internal bool) []columnar.Value {
			size := nullInt
			if n, ok := typeSize(t); ok {
				size = i64(int64(n))
			}
			labels := columnar.NullValue(columnar.ListOf(v))
			if t.ID == columnar.Enum && !internal {
				labels = columnar.Value{Type: columnar.ListOf(v), Elems: []columnar.Value{}}
				for _, l := range t.EnumValues() {
					labels.Elems = append(labels.Elems, str(l))
				}
			}
			return append(headRow(temp, schema), oid, str(name), size, str(logicalTypeName(t)), text(typeCategory(t)),
				text(comment), noTags, boolean(internal), labels)
		}
		for _, temp := range []bool{false, true} {
			for _, bt := range builtinTypes() {
				oid := nullInt
				if bt.first {
					oid = i64(int64(duckTypeID(bt.t)))
				}
				rows = append(rows, typeRow(temp, DefaultSchema, oid, bt.name, bt.t, "", true))
			}
		}
		for k, t := range objs.Types() {
			rows = append(rows, typeRow(false, t.Schema, i64(int64(4000+k)), t.Name, t.Type, t.Comment, false))
		}
	}
	return b.constTable(alias, "catalog", cols, rows) // bind_func_table.go
}

// NoObjects lists nothing: a catalog that keeps no sequences, indexes or
// types.
var NoObjects ObjectLister = emptyObjects{}

type emptyObjects struct{}

func (emptyObjects) Sequences() []SequenceInfo { return nil }
func (emptyObjects) Indexes() []IndexInfo      { return nil }
func (emptyObjects) Types() []TypeInfo         { return nil }

// createSequenceText is a sequence as DuckDB shows its sql: START is
// where the sequence stands now (nextval's next answer).
func createSequenceText(s SequenceInfo) string {
	cycle := "NO CYCLE"
	if s.Cycle {
		cycle = "CYCLE"
	}
	return fmt.Sprintf("CREATE SEQUENCE %s INCREMENT BY %d MINVALUE %d MAXVALUE %d START %d %s;",
		qualifiedText(s.Schema, s.Name), s.Incr, s.Min, s.Max, s.Next, cycle)
}

// createIndexText is CREATE [UNIQUE] INDEX [name] ON t [USING kind](cols);
// a CTable's unnamed index is written without a name, as b2sql reads it.
func createIndexText(ix IndexInfo) string {
	var sb strings.Builder
	sb.WriteString("CREATE ")
	if ix.Unique {
		sb.WriteString("UNIQUE ")
	}
	sb.WriteString("INDEX ")
	if ix.Name != "" {
		sb.WriteString(columnar.QuoteIdent(ix.Name) + " ")
	}
	sb.WriteString("ON " + qualifiedText(ix.Schema, ix.Table))
	if ix.Kind != "" {
		sb.WriteString(" USING " + strings.ToUpper(ix.Kind) + " ")
	}
	quoted := make([]string, len(ix.Columns))
	for i, c := range ix.Columns {
		quoted[i] = columnar.QuoteIdent(c)
	}
	sb.WriteString("(" + strings.Join(quoted, ", ") + ");")
	return sb.String()
}

// qualifiedText is name, schema.name outside main, quoted where needed.
func qualifiedText(schema, name string) string {
	if schema == "" || strings.EqualFold(schema, DefaultSchema) {
		return columnar.QuoteIdent(name)
	}
	return columnar.QuoteIdent(schema) + "." + columnar.QuoteIdent(name)
}

// builtinType is one built-in type name; first marks the alphabetically
// first name of its type, the one DuckDB gives the type's oid.
type builtinType struct {
	name  string
	t     columnar.Type
	first bool
}

// builtinTypes are the type names b2sql's parser knows that DuckDB lists
// in duckdb_types(): the one-word names and aliases (CHARACTER is only
// a parser word there), the two spelled with TIME ZONE, and the
// parameterized and nested types' names, in name order.
func builtinTypes() []builtinType {
	var out []builtinType
	for name, t := range simpleTypes {
		if name != "CHARACTER" && (!strings.Contains(name, " ") || name == t.String()) {
			out = append(out, builtinType{name: strings.ToLower(name), t: t})
		}
	}
	for _, name := range []string{"decimal", "numeric", "dec"} {
		out = append(out, builtinType{name: name, t: columnar.Type{ID: columnar.Decimal}})
	}
	structT := columnar.StructOf(columnar.Field{Name: "a", Type: columnar.TInt32, Nullable: true})
	out = append(out, builtinType{name: "struct", t: structT}, builtinType{name: "row", t: structT},
		builtinType{name: "list", t: columnar.ListOf(columnar.TInt32)},
		builtinType{name: "map", t: columnar.MapOf(columnar.TInt32, columnar.TInt32)},
		builtinType{name: "enum", t: columnar.Type{ID: columnar.Enum}})
	slices.SortFunc(out, func(a, b builtinType) int { return strings.Compare(a.name, b.name) })
	seen := map[string]bool{}
	for i := range out {
		id := logicalTypeName(out[i].t)
		out[i].first = !seen[id]
		seen[id] = true
	}
	return out
}

// logicalTypeName is DuckDB's name of a type's LogicalTypeId: the type's
// name without its parameters or fields.
func logicalTypeName(t columnar.Type) string {
	switch t.ID {
	case columnar.Decimal, columnar.Decimal128:
		return "DECIMAL"
	case columnar.List:
		return "LIST"
	case columnar.Struct:
		return "STRUCT"
	case columnar.Map:
		return "MAP"
	case columnar.Enum:
		return "ENUM"
	}
	return t.String()
}

// typeSize is the bytes DuckDB stores a value of t in (its physical
// type's size); ok is false where DuckDB leaves it NULL (DECIMAL without
// a width, the ENUM type name).
func typeSize(t columnar.Type) (int, bool) {
	switch t.ID {
	case columnar.Bool, columnar.Int8, columnar.Uint8:
		return 1, true
	case columnar.Int16, columnar.Uint16:
		return 2, true
	case columnar.Int32, columnar.Uint32, columnar.Float32, columnar.Date:
		return 4, true
	case columnar.Int64, columnar.Uint64, columnar.Float64, columnar.Time, columnar.TimeTZ, columnar.Timestamp,
		columnar.TimestampS, columnar.TimestampMS, columnar.TimestampNS, columnar.TimestampTZ:
		return 8, true
	case columnar.Struct:
		return 0, true
	case columnar.Decimal, columnar.Decimal128:
		switch {
		case t.Precision == 0:
			return 0, false
		case t.Precision <= 4:
			return 2, true
		case t.Precision <= 9:
			return 4, true
		case t.Precision <= 18:
			return 8, true
		}
		return 16, true
	case columnar.Enum:
		if t.Nest == nil {
			return 0, false
		}
		switch n := len(t.EnumValues()); {
		case n <= 1<<8:
			return 1, true
		case n <= 1<<16:
			return 2, true
		}
		return 4, true
	}
	return 16, true // strings, blobs, intervals, UUIDs, huge integers, lists, maps
}

// typeCategory is DuckDB's type_category ("" for none).
func typeCategory(t columnar.Type) string {
	switch {
	case t.ID == columnar.Bool:
		return "BOOLEAN"
	case t.IsNumeric(), t.ID == columnar.Decimal128, t.ID == columnar.Hugeint, t.ID == columnar.Uhugeint:
		return "NUMERIC"
	case t.ID == columnar.Varchar:
		return "STRING"
	case t.ID == columnar.Date, t.ID == columnar.Time, t.ID == columnar.TimeTZ, t.ID == columnar.Interval, t.IsTimestampFamily(), t.ID == columnar.TimestampTZ:
		return "DATETIME"
	case t.ID == columnar.List, t.ID == columnar.Struct, t.ID == columnar.Map:
		return "COMPOSITE"
	}
	return ""
}
