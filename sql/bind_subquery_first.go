package sql

import "github.com/b2sql/b2sql/sql/ast"

// anyRowSubquery is the subquery e binds as: e itself, or, for a scalar
// subquery (q) under scalar_subquery_error_on_multiple_rows = false, q limited to its
// first row, so that a subquery giving several rows gives its first
// (in its ORDER BY's order, if it has one) instead of an error, as
// DuckDB's test states (… ORDER BY i) is then (… ORDER BY i LIMIT 1). A
// correlated q is limited per outer row, as any correlated LIMIT is. A q
// with LIMIT or OFFSET of its own is wrapped: LIMIT 1 of its rows.
func (b *binder) anyRowSubquery(e *ast.Subquery) *ast.Subquery {
	if e.Kind != ast.SubScalar || b.settingOn("scalar_subquery_error_on_multiple_rows", true) {
		return e
	}
	q := e.Query
	one := &ast.Limit{Span: q.Span, Count: &ast.Literal{Span: q.Span, Kind: ast.LitNumber, Val: "1"}}
	limited := &ast.Query{Span: q.Span, Body: q, Limit: one}
	if q.Limit == nil && q.Offset == nil {
		c := *q
		c.Limit, limited = one, &c
	}
	x := *e
	x.Query = limited
	return &x
}
