package sql

import (
	"strconv"

	"github.com/b2sql/b2sql/sql/ast"
)

// (a, b) < ANY (SELECT x, y …), and <=, >, >= with ANY or ALL: a row value
// against a subquery of as many columns compares as DuckDB's STRUCTs do,
// lexicographically (a NULL field after every value), so the subquery's
// rows become one STRUCT column and the comparison binds as any
// x op ANY|ALL (q) (bind_subquery_quantified.go). = ANY and <> ALL are
// IN and NOT IN, with SQL's NULLs per field (bind_row_in.go).
//
// A plain SELECT's items are packed in place, row(x, y), so that a
// correlated subquery stays one; any other query (SELECT *, a set
// operation) is read through a derived table of named columns.

// rowQuantified is e with its subquery's columns packed into one STRUCT
// column; ok is false when e is not such a comparison.
func rowQuantified(e *ast.Quantified) (*ast.Quantified, bool) {
	elems, isRow := rowElems(e.X)
	if !isRow || len(elems) < 2 || e.Query == nil || !orderedOps[e.Op] {
		return nil, false
	}
	sp := e.Query.Span
	row := func(args []ast.Expr) ast.Expr {
		return &ast.Func{Span: sp, Name: ast.Name{{Span: sp, Name: "row"}}, Args: args}
	}
	q := *e.Query
	sel, isSelect := q.Body.(*ast.Select)
	if isSelect && plainItems(sel.Items) && len(sel.Items) != len(elems) {
		return nil, false // one STRUCT column already, or a count mismatch: as written
	}
	if isSelect && q.With == nil && len(q.OrderBy) == 0 && plainItems(sel.Items) {
		packed := *sel
		args := make([]ast.Expr, len(sel.Items))
		for i, it := range sel.Items {
			args[i] = it.X
		}
		packed.Items = []*ast.SelectItem{{Span: sp, X: row(args)}}
		q.Body = &packed
	} else {
		cols := make([]*ast.Ident, len(elems))
		args := make([]ast.Expr, len(elems))
		for i := range cols {
			cols[i] = &ast.Ident{Span: sp, Name: "__row_" + strconv.Itoa(i+1)}
			args[i] = &ast.ColumnRef{Span: sp, Name: ast.Name{cols[i]}}
		}
		from := &ast.Derived{Span: sp, Query: e.Query, Alias: &ast.Alias{Span: sp, Name: &ast.Ident{Span: sp, Name: "__row"}, Columns: cols}}
		q = ast.Query{Span: sp, Body: &ast.Select{Span: sp, Items: []*ast.SelectItem{{Span: sp, X: row(args)}}, From: []ast.TableRef{from}}}
	}
	out := *e
	out.Query = &q
	return &out, true
}

// orderedOps are the comparisons whose row form is lexicographic.
var orderedOps = map[string]bool{"<": true, "<=": true, ">": true, ">=": true}

// plainItems reports whether a select list is expressions only (no *).
func plainItems(items []*ast.SelectItem) bool {
	for _, it := range items {
		if _, star := it.X.(*ast.Star); star {
			return false
		}
		if _, cols := it.X.(*ast.Columns); cols {
			return false
		}
	}
	return len(items) > 0
}
