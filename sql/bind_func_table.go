package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// The table functions, registered here because the binder builds them.
func init() {
	table := func(name, desc string, examples []string, params ...string) *function.Set {
		o := function.Overload{Params: params}
		for range params {
			o.Args = append(o.Args, function.Any)
		}
		return &function.Set{Name: name, Kind: function.Table, Categories: []string{"table"}, CustomBind: true,
			Description: desc, Examples: examples, Overloads: []function.Overload{o}}
	}
	alias := func(s *function.Set, names ...string) *function.Set { s.Aliases = names; return s }
	function.Register(
		alias(table("read_parquet", "The rows of Parquet files (a path, a glob or a list of them)", nil, "path"), "parquet_scan"),
		alias(table("read_csv", "The rows of CSV files, with the dialect and types detected", nil, "path"), "read_csv_auto"),
		alias(table("read_json", "The rows of JSON files (arrays, objects or newline-delimited)", nil, "path"), "read_json_auto"),
		alias(table("read_ndjson", "The rows of newline-delimited JSON files", nil, "path"), "read_ndjson_auto"),
		table("read_b2", "The rows of a blosc2 file (.b2nd, .b2d, .b2z)", nil, "path"),
		table("b2_metadata", "The chunks and blocks of a blosc2 file", nil, "path"),
		table("parquet_metadata", "One row per column chunk of Parquet files: offsets, sizes, encodings, statistics", nil, "path"),
		table("parquet_schema", "One row per schema element of Parquet files, with the type it reads as", nil, "path"),
		table("parquet_file_metadata", "One row per Parquet file: writer, rows, row groups, sizes", nil, "path"),
		table("parquet_kv_metadata", "The key/value metadata of Parquet files", nil, "path"),
		table("range", "The BIGINTs from start up to end (exclusive) by step", []string{"range(3)", "range(1, 10, 3)"}, "start", "end", "step"),
		table("generate_series", "The BIGINTs from start through end (inclusive) by step", []string{"generate_series(1, 3)"}, "start", "end", "step"),
		table("duckdb_settings", "The session's settings", []string{"duckdb_settings()"}),
		table("duckdb_functions", "The functions, one row per overload and name", []string{"duckdb_functions()"}),
		table("duckdb_schemas", "The schemas, one row per schema of each catalog", []string{"duckdb_schemas()"}),
	)
}

// functionsColumns are duckdb_functions()' columns, as DuckDB 1.5 has them.
var functionsColumns = func() []tableColumn {
	v, vs := columnar.TVarchar, columnar.ListOf(columnar.TVarchar)
	return []tableColumn{
		{"database_name", v}, {"database_oid", v}, {"schema_name", v}, {"function_name", v},
		{"alias_of", v}, {"function_type", v}, {"description", v}, {"comment", v},
		{"tags", columnar.MapOf(v, v)}, {"return_type", v}, {"parameters", vs}, {"parameter_types", vs},
		{"varargs", v}, {"macro_definition", v}, {"has_side_effects", columnar.TBool}, {"internal", columnar.TBool},
		{"function_oid", columnar.TInt64}, {"examples", vs}, {"stability", v}, {"categories", vs},
	}
}()

// bindFunctionsTable binds FROM duckdb_functions() to one row per overload
// and name (an alias names the function it is an alias of) of the function
// registry, as constants.
func (b *binder) bindFunctionsTable(args callexpr.SelectExprs, alias string, at int) (*fromItem, error) {
	if len(args) != 0 {
		return nil, b.arity(at, "duckdb_functions", "0")
	}
	if alias == "" {
		alias = "duckdb_functions"
	}
	rows := functionRows()
	if mc, ok := b.cat.(interface{ Macros() []*Macro }); ok {
		rows = append(rows, macroRows(mc.Macros())...)
	}
	return b.constTable(alias, "function registry", functionsColumns, rows)
}

// macroRows are duckdb_functions()' rows of the catalog's macros, one per
// overload, as DuckDB shows them: function_type macro or table_macro,
// the body as macro_definition, each parameter's type or NULL.
func macroRows(ms []*Macro) [][]columnar.Value {
	str := columnar.StringValue
	null := columnar.NullValue(columnar.TVarchar)
	list := func(ss []string) columnar.Value {
		v := columnar.Value{Type: columnar.ListOf(columnar.TVarchar), Elems: []columnar.Value{}}
		for _, s := range ss {
			if s == "" {
				v.Elems = append(v.Elems, null)
			} else {
				v.Elems = append(v.Elems, str(s))
			}
		}
		return v
	}
	var out [][]columnar.Value
	for _, m := range ms {
		db, schema, kind := "memory", DefaultSchema, "macro"
		if m.Temp {
			db = "temp"
		}
		if m.Schema != "" {
			schema = m.Schema
		}
		if m.Table {
			kind = "table_macro"
		}
		comment := null
		if m.Comment != "" {
			comment = str(m.Comment)
		}
		for _, o := range m.Overloads {
			var names, types []string
			for _, p := range o.Params {
				names = append(names, p.Name)
				types = append(types, p.Type)
			}
			out = append(out, []columnar.Value{
				str(db), str("0"), str(schema), str(m.Name), null, str(kind), null, comment,
				{Type: columnar.MapOf(columnar.TVarchar, columnar.TVarchar), Elems: []columnar.Value{}},
				null, list(names), list(types), null, str(o.Body), null, columnar.BoolValue(false),
				columnar.NullValue(columnar.TInt64), list(nil), null, list(nil),
			})
		}
	}
	return out
}

// tableColumn is a column of a table function whose rows are constants.
type tableColumn struct {
	name string
	typ  columnar.Type
}

// constTable binds a table of constant rows (duckdb_settings(),
// duckdb_functions()) as a relation named alias.
func (b *binder) constTable(alias, note string, cols []tableColumn, rows [][]columnar.Value) (*fromItem, error) {
	return b.relation(b.constValues(alias, note, cols, rows), alias, nil, nil)
}

// constValues is constTable's relation before it is named.
func (b *binder) constValues(alias, note string, cols []tableColumn, rows [][]columnar.Value) *Bound {
	n := &planner.Values{Note: note}
	names := make([]string, len(cols))
	for i, col := range cols {
		names[i] = col.name
		n.Out = append(n.Out, b.newCol(col.name, alias, col.typ))
	}
	for _, r := range rows {
		row := make([]planner.Expr, len(r))
		for i, v := range r {
			row[i] = &planner.Const{Val: v}
		}
		n.Rows = append(n.Rows, row)
	}
	return &Bound{Root: n, Names: names}
}

// functionRows are the values of duckdb_functions(), in functionsColumns'
// order.
func functionRows() [][]columnar.Value {
	str := columnar.StringValue
	null := columnar.NullValue(columnar.TVarchar)
	list := func(ss []string) columnar.Value {
		v := columnar.Value{Type: columnar.ListOf(columnar.TVarchar), Elems: []columnar.Value{}}
		for _, s := range ss {
			v.Elems = append(v.Elems, str(s))
		}
		return v
	}
	var out [][]columnar.Value
	for oid, s := range function.All() {
		if s.Internal {
			continue
		}
		for _, name := range append([]string{s.Name}, s.Aliases...) {
			aliasOf := null
			if name != s.Name {
				aliasOf = str(s.Name)
			}
			for i := range s.Overloads {
				o := &s.Overloads[i]
				types := make([]string, len(o.Args))
				for k, a := range o.Args {
					types[k] = a.TypeName()
				}
				ret := str(o.ReturnName())
				if s.Kind == function.Table {
					ret = null // a table function's rows have their own columns
				}
				varargs := null
				if o.Variadic {
					varargs = str(o.Args[len(o.Args)-1].TypeName())
				}
				out = append(out, []columnar.Value{
					str("system"), str("0"), str("main"), str(name),
					aliasOf, str(s.Kind.String()), str(s.Description), null,
					{Type: columnar.MapOf(columnar.TVarchar, columnar.TVarchar), Elems: []columnar.Value{}},
					ret, list(o.Params), list(types),
					varargs, null, columnar.BoolValue(s.Stability == function.Volatile), columnar.BoolValue(true),
					columnar.IntValue(columnar.TInt64, int64(oid)), list(s.Examples), str(s.Stability.String()), list(s.Categories),
				})
			}
		}
	}
	return out
}
