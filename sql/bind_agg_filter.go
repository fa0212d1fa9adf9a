package sql

import "github.com/dolthub/vitess/go/vt/sqlparser"

// markFilter separates an aggregate's arguments from its FILTER (WHERE
// cond) condition, which the rewriter moves into the call (rewrite.go).
const markFilter = "b2sql:filter"

// unfilter turns agg(x, …, 'b2sql:filter', cond) into agg(CASE WHEN cond
// THEN x END, …): the aggregate sees NULL for the rows cond rejects,
// which every aggregate skips (count(*) FILTER arrives as count(1, …)).
// arg_max(arg, val) skips the rows of a NULL val, not arg: its val is
// wrapped instead. Other calls are returned as they are.
func unfilter(e *sqlparser.FuncExpr) *sqlparser.FuncExpr {
	if argMinMaxAggs[e.Name.Lowered()] != 0 && len(e.Exprs) == 4 {
		if f := unfilter(&sqlparser.FuncExpr{Name: e.Name, Exprs: sqlparser.SelectExprs{e.Exprs[1], e.Exprs[2], e.Exprs[3]}}); len(f.Exprs) == 1 {
			c := *e
			c.Exprs = sqlparser.SelectExprs{e.Exprs[0], f.Exprs[0]}
			return &c
		}
		return e
	}
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
