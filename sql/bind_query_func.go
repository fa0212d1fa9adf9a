package sql

import (
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// query('SELECT …') and query_table(name | [names] [, by_name]), DuckDB's
// table functions of a query given as text and of tables given by name
// (a table macro's way to take a table as a parameter). Both are bound as
// the query they stand for, the caller's WITH names in scope (as DuckDB
// binds them): query_table of several names is their UNION ALL, BY NAME
// when by_name is true. A name may be a table, a view, a WITH name or a
// path.

func init() {
	table := func(name, desc, example string, params ...string) *function.Set {
		o := function.Overload{Params: params}
		for range params {
			o.Args = append(o.Args, function.Any)
		}
		return &function.Set{Name: name, Kind: function.Table, Categories: []string{"table"}, CustomBind: true,
			Description: desc, Examples: []string{example}, Overloads: []function.Overload{o}}
	}
	function.Register(
		table("query", "The rows of a query given as text", "query('SELECT 42 AS x')", "query_string"),
		table("query_table", "The rows of tables given by name (a list: their UNION ALL, BY NAME when by_name)", "query_table(['t1', 't2'], true)", "tbl_names", "by_name"),
	)
}

// queryFuncs are the table functions bindQueryFunc binds.
var queryFuncs = map[string]bool{"query": true, "query_table": true}

// bindQueryFunc binds query(…) or query_table(…) called at token at.
func (b *binder) bindQueryFunc(fn string, f *ast.Func, alias string, cols []string, at int) (*fromItem, error) {
	var text string
	switch fn {
	case "query":
		if len(f.Args) != 1 {
			return nil, b.arity(at, fn, "1")
		}
		v, err := b.constArg(f.Args[0])
		if err != nil || v.Null || v.Type.Phys() != columnar.PhysBytes {
			return nil, b.errAt(b.q.tokAt(f.Args[0].Extent().Start), ErrType, "query expects a constant string: the text of one SELECT")
		}
		if n := len(Split(v.S)); n != 1 {
			return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("query expects a single SELECT statement, got %d statements", n))
		}
		text = v.S
	default:
		if len(f.Args) < 1 || len(f.Args) > 2 {
			return nil, b.arity(at, fn, "1 or 2")
		}
		names, err := b.tableNames(f.Args[0])
		if err != nil {
			return nil, err
		}
		union := " UNION ALL "
		if len(f.Args) == 2 {
			v, err := b.constArg(f.Args[1])
			if err != nil || v.Null || v.Type.ID != columnar.Bool {
				return nil, b.errAt(b.q.tokAt(f.Args[1].Extent().Start), ErrType, "query_table's by_name expects a constant BOOLEAN")
			}
			if v.Bool() {
				union = " UNION ALL BY NAME "
			}
		}
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = "SELECT * FROM " + b.relationText(n)
		}
		text = strings.Join(parts, union)
	}
	bd, err := b.bindText(text)
	if err != nil {
		var e *Error
		kind, msg := error(ErrUnsupported), err.Error()
		if errors.As(err, &e) {
			kind, msg = e.Kind, e.Msg
		}
		return nil, b.errAt(at, kind, fmt.Sprintf("in %s(…): %s", fn, msg))
	}
	if alias == "" {
		alias = fn
	}
	return b.relation(bd, alias, cols, func(kind error, msg string) error { return b.errAt(at, kind, msg) })
}

// tableNames reads query_table's first argument: a name (a string, or an
// identifier as written) or a list of names.
func (b *binder) tableNames(arg ast.Expr) ([]string, error) {
	if r, ok := arg.(*ast.ColumnRef); ok {
		parts := make([]string, len(r.Name))
		for i, p := range r.Name {
			parts[i] = p.Name
		}
		return []string{strings.Join(parts, ".")}, nil
	}
	bad := b.errAt(b.q.tokAt(arg.Extent().Start), ErrType, "query_table expects a table name or a list of names (constant strings)")
	v, err := b.constArg(arg)
	if err != nil || v.Null {
		return nil, bad
	}
	if v.Type.Phys() == columnar.PhysBytes {
		return []string{v.S}, nil
	}
	if v.Type.ID != columnar.List || len(v.Elems) == 0 {
		return nil, bad
	}
	var names []string
	for _, e := range v.Elems {
		if e.Null || e.Type.Phys() != columnar.PhysBytes {
			return nil, bad
		}
		names = append(names, e.S)
	}
	return names, nil
}

// constArg is the value of a table function's argument that must be a
// constant: bound with no columns in scope and folded.
func (b *binder) constArg(x ast.Expr) (columnar.Value, error) {
	saved := b.saveScope()
	b.scope, b.quals, b.hidden = nil, nil, nil
	defer b.restoreScope(saved)
	e, err := b.bindAST(x, ectx{sp: b.q.spanOf(x), clause: "FROM"})
	if err != nil {
		return columnar.Value{}, err
	}
	k, ok := planner.FoldExpr(e).(*planner.Const)
	if !ok {
		return columnar.Value{}, errors.New("not a constant")
	}
	return k.Val, nil
}
