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
// table function's is. The same series alone in a correlated subquery's
// FROM is that unnest too (correlatedSeries).

// lateralSeries binds the series t over acc's rows.
func (b *binder) lateralSeries(acc *fromItem, t *ast.TableFunc) (*fromItem, error) {
	return b.lateralUnnest(acc, seriesUnnest(t))
}

// correlatedSeries binds the series t alone in a subquery's FROM whose
// bounds read the outer query, (SELECT count(*) FROM range(t.n)): the
// unnested list, which the subquery's decorrelation evaluates per outer
// row. ok is false when t's arguments are not such.
func (b *binder) correlatedSeries(t *ast.TableFunc) (*fromItem, bool) {
	if !isSeriesCall(t) || !refersToColumns(t.Func) {
		return nil, false
	}
	it, err := b.bindTableFuncAST(seriesUnnest(t))
	return it, err == nil
}

// seriesUnnest is FROM unnest(f(args)) AS name(name) for the series call
// f(args): the scalar of the same name makes its values as a list.
func seriesUnnest(t *ast.TableFunc) *ast.TableFunc {
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
	return &ast.TableFunc{Span: t.Span, Func: unnest, Alias: alias}
}
