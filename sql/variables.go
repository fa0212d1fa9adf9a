package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// SQL variables, DuckDB's SET VARIABLE name = expr, getvariable('name')
// and duckdb_variables(): values a session keeps by name (any case). The
// engine computes SET VARIABLE's expression as the query SELECT expr and
// keeps its value; the binder folds getvariable to that value, a constant
// of the statement, through the catalog (VariableReader).

func init() {
	function.Register(&function.Set{Name: "getvariable", Kind: function.Scalar, Categories: []string{"system"}, CustomBind: true,
		Description: "The value of a SQL variable (SET VARIABLE), NULL when none has the name", Examples: []string{"getvariable('x')"},
		Overloads: []function.Overload{{Params: []string{"name"}, Args: []function.Arg{function.Str}, Returns: columnar.TNull}}},
		&function.Set{Name: "duckdb_variables", Kind: function.Table, Categories: []string{"table"}, CustomBind: true,
			Description: "The session's SQL variables: name, value as text, type", Examples: []string{"duckdb_variables()"},
			Overloads: []function.Overload{{}}})
}

// SetVariable is SET VARIABLE name = expr: Query is SELECT expr.
type SetVariable struct {
	Name  string
	Query *Query
}

// ResetVariable is RESET VARIABLE name.
type ResetVariable struct{ Name string }

func (*SetVariable) statement()   {}
func (*ResetVariable) statement() {}

// VariableReader is a catalog that can read the session's SQL variables.
type VariableReader interface {
	// Variable is the value of variable name (any case); ok is false
	// when none has the name.
	Variable(name string) (v columnar.Value, ok bool)
	// Variables are the session's variables, in name order.
	Variables() []Variable
}

// Variable is a SQL variable and its value.
type Variable struct {
	Name  string
	Value columnar.Value
}

// setVariable builds SET VARIABLE name = expr, the expression as the
// select item of a query whose nodes keep their places in the statement.
func (b *stmtBuilder) setVariable(s *ast.Set) (Statement, error) {
	if len(s.Values) != 1 {
		return nil, b.syntax(s.Values[len(s.Values)-1])
	}
	x := s.Values[0]
	sp := x.Extent()
	sel := &ast.Select{Span: sp, Items: []*ast.SelectItem{{Span: sp, X: x}}}
	toks, err := b.tokens()
	if err != nil {
		return nil, err
	}
	q := &Query{src: b.src, toks: toks, tree: &ast.Query{Span: sp, Body: sel}}
	return &SetVariable{Name: s.Name[0].Name, Query: q}, nil
}

// bindGetVariable binds getvariable('name') to the variable's value (a
// NULL when no variable has the name), as DuckDB folds it.
func (b *binder) bindGetVariable(args []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	if len(args) != 1 {
		return nil, b.arity(at, "getvariable", "1")
	}
	x, err := b.bindExpr(args[0], c)
	if err != nil {
		return nil, err
	}
	k, ok := planner.FoldExpr(x).(*planner.Const)
	if !ok {
		return nil, b.typeErr(args[0], c, "getvariable expects a constant name")
	}
	if k.Val.Null {
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
	}
	if k.Val.Type.Phys() != columnar.PhysBytes {
		return nil, b.typeErr(args[0], c, "getvariable expects a VARCHAR name")
	}
	if vr, ok := b.cat.(VariableReader); ok {
		if v, ok := vr.Variable(k.Val.S); ok {
			return &planner.Const{Val: v}, nil
		}
	}
	return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
}

// bindGetVariableCall is getvariable's hook (bind_func_hooks.go).
func bindGetVariableCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	x, err := b.bindGetVariable(args, at, c)
	return x, true, err
}

// variablesColumns are duckdb_variables()' columns, as DuckDB 1.5 has them.
var variablesColumns = []tableColumn{{"name", columnar.TVarchar}, {"value", columnar.TVarchar}, {"type", columnar.TVarchar}}

// bindVariablesTable binds FROM duckdb_variables() to one constant row per
// variable: its name, its value as text and its type.
func (b *binder) bindVariablesTable(args callexpr.SelectExprs, alias string, at int) (*fromItem, error) {
	if len(args) != 0 {
		return nil, b.arity(at, "duckdb_variables", "0")
	}
	if alias == "" {
		alias = "duckdb_variables"
	}
	var rows [][]columnar.Value
	if vr, ok := b.cat.(VariableReader); ok {
		for _, v := range vr.Variables() {
			text := columnar.NullValue(columnar.TVarchar)
			if !v.Value.Null {
				text = columnar.StringValue(v.Value.String())
			}
			rows = append(rows, []columnar.Value{columnar.StringValue(v.Name), text, columnar.StringValue(v.Value.Type.String())})
		}
	}
	return b.constTable(alias, "session variables", variablesColumns, rows) // bind_func_table.go
}
