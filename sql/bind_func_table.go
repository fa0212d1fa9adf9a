package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

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
func (b *binder) bindFunctionsTable(args sqlparser.SelectExprs, alias string) (*fromItem, error) {
	if len(args) != 0 {
		return nil, b.arity(b.q.findName("", "duckdb_functions", b.cl.from), "duckdb_functions", "0")
	}
	if alias == "" {
		alias = "duckdb_functions"
	}
	return b.constTable(alias, "function registry", functionsColumns, functionRows())
}

// tableColumn is a column of a table function whose rows are constants.
type tableColumn struct {
	name string
	typ  columnar.Type
}

// constTable binds a table of constant rows (duckdb_settings(),
// duckdb_functions()) as a relation named alias.
func (b *binder) constTable(alias, note string, cols []tableColumn, rows [][]columnar.Value) (*fromItem, error) {
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
	return b.relation(&Bound{Root: n, Names: names}, alias, nil)
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
				varargs := null
				if o.Variadic {
					varargs = str(o.Args[len(o.Args)-1].TypeName())
				}
				out = append(out, []columnar.Value{
					str("system"), str("0"), str("main"), str(name),
					aliasOf, str(s.Kind.String()), str(s.Description), null,
					{Type: columnar.MapOf(columnar.TVarchar, columnar.TVarchar), Elems: []columnar.Value{}},
					str(o.ReturnName()), list(o.Params), list(types),
					varargs, null, columnar.BoolValue(s.Stability == function.Volatile), columnar.BoolValue(true),
					columnar.IntValue(columnar.TInt64, int64(oid)), list(s.Examples), str(s.Stability.String()), list(s.Categories),
				})
			}
		}
	}
	return out
}
