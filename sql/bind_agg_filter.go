package sql

import "github.com/dolthub/vitess/go/vt/sqlparser"

// markFilter separates an aggregate's arguments from its FILTER (WHERE
// cond) condition, which the rewriter moves into the call (rewrite.go).
const markFilter = "b2sql:filter"

// unfilter turns agg(x, …, 'b2sql:filter', cond) into agg(CASE WHEN cond
// THEN x END, …): the aggregate sees NULL for the rows cond rejects,
// which every aggregate skips (count(*) FILTER arrives as count(1, …)).
// Other calls are returned as they are.
func unfilter(e *sqlparser.FuncExpr) *sqlparser.FuncExpr {
	n := len(e.Exprs)
	if n < 3 {
		return e
	}
	m, ok := e.Exprs[n-2].(*sqlparser.AliasedExpr)
	if !ok {
		return e
	}
	v, ok := m.Expr.(*sqlparser.SQLVal)
	if !ok || v.Type != sqlparser.StrVal || string(v.Val) != markFilter {
		return e
	}
	cond, ok1 := e.Exprs[n-1].(*sqlparser.AliasedExpr)
	first, ok2 := e.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok1 || !ok2 {
		return e
	}
	c := *e
	c.Exprs = append(sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: &sqlparser.CaseExpr{
		Whens: []*sqlparser.When{{Cond: cond.Expr, Val: first.Expr}}}}}, e.Exprs[1:n-2]...)
	return &c
}
