package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// FROM t, range(t.n) [AS r(x)] and generate_series(t.a, t.b): a series
// whose bounds read the columns of the FROM elements before it, DuckDB's
// implicit LATERAL. Each row of t repeats once per value of its series,
// which is the list the scalar range/generate_series makes of the same
// arguments, unnested (lateralUnnest): an empty series, or a NULL bound,
// gives the row no match. The column is named after the function, as the
// table function's is.

// lateralSeries binds the series t over acc's rows.
func (b *binder) lateralSeries(acc *fromItem, t *ast.TableFunc) (*fromItem, error) {
	f := t.Func
	name := strings.ToLower(f.Name[0].Name)
	alias := &ast.Alias{Span: f.Span, Name: &ast.Ident{Span: f.Name[0].Span, Name: name}}
	if t.Alias != nil {
		cp := *t.Alias
		alias = &cp
	}
	if len(alias.Columns) == 0 {
		alias.Columns = []*ast.Ident{{Span: f.Name[0].Span, Name: name}}
	}
	list := *f // the scalar of the same name: its values as a list
	unnest := &ast.Func{Span: f.Span, Name: ast.Name{&ast.Ident{Span: f.Name[0].Span, Name: "unnest"}}, Args: []ast.Expr{&list}}
	return b.lateralUnnest(acc, &ast.TableFunc{Span: t.Span, Func: unnest, Alias: alias})
}
