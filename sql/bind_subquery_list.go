package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// Subqueries without a FROM clause compute over the outer row alone, so
// they need no join: they are rewritten into the expressions they stand
// for before binding, which also makes them work when they read the outer
// query's columns (a correlated subquery outside WHERE otherwise has no
// plan):
//
//	(SELECT e)                  e, for e without aggregates, windows,
//	                            unnest, * or COLUMNS (one row, one value)
//	(SELECT unnest(l))          l[1], NULL for an empty or NULL l, and
//	                            DuckDB's error for more than one element
//	x IN (SELECT unnest(l))     x = ANY (l), a quantified list comparison
//	                            with the same NULL rules (bind_quantified_list.go)
//	x op ANY|ALL (SELECT unnest(l))   x op ANY|ALL (l)
//
// listSubquery returns the rewrite of e, ok false when e is not one.
func listSubquery(e ast.Expr) (ast.Expr, bool) {
	switch e := e.(type) {
	case *ast.Subquery:
		if e.Kind != ast.SubScalar {
			return nil, false
		}
		if x, ok := unnestAggSubquery(e.Query); ok {
			return x, true // bind_subquery_unnest_agg.go
		}
		x, ok := fromlessItem(e.Query)
		if !ok {
			return nil, false
		}
		if l, ok := unnestArg(x); ok {
			sp := e.Span
			call := func(name string, args ...ast.Expr) ast.Expr {
				return &ast.Func{Span: sp, Name: ast.Name{{Span: sp, Name: name}}, Args: args}
			}
			many := &ast.Binary{Span: sp, Op: ">", L: call("len", l), R: &ast.Literal{Span: sp, Kind: ast.LitNumber, Val: "1"}}
			fail := call("error", &ast.Literal{Span: sp, Kind: ast.LitString, Val: errSubqueryRows})
			return &ast.Case{Span: sp, Whens: []*ast.When{{Span: sp, Cond: many, Then: fail}},
				Else: &ast.Index{Span: sp, X: l, Index: &ast.Literal{Span: sp, Kind: ast.LitNumber, Val: "1"}}}, true
		}
		if !plainValue(x) {
			return nil, false
		}
		return x, true
	case *ast.InQuery:
		l, ok := unnestQuery(e.Query)
		if !ok {
			return nil, false
		}
		var out ast.Expr = &ast.Quantified{Span: e.Span, X: e.X, Op: "=", Quant: "ANY", List: l}
		if e.Not {
			out = &ast.Unary{Span: e.Span, Op: "NOT", X: out}
		}
		return out, true
	case *ast.Quantified:
		if e.Query == nil {
			return nil, false
		}
		l, ok := unnestQuery(e.Query)
		if !ok {
			return nil, false
		}
		return &ast.Quantified{Span: e.Span, X: e.X, Op: e.Op, Quant: e.Quant, List: l}, true
	}
	return nil, false
}

// errSubqueryRows is the error of a scalar subquery with more than one row.
const errSubqueryRows = "more than one row returned by a subquery used as an expression"

// plainValue reports whether x, the item of a FROM-less SELECT, is one
// value per outer row: no aggregate, window, unnest, *, COLUMNS or #n outside
// nested queries.
func plainValue(x ast.Expr) bool {
	if astHasAgg(x) {
		return false
	}
	plain := true
	ast.Inspect(x, func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.Func:
			if e.Over != nil || len(e.Name) == 1 && strings.EqualFold(e.Name[0].Name, "unnest") {
				plain = false
			}
		case *ast.Star, *ast.Columns, *ast.PositionalRef:
			plain = false // they count the subquery's own (empty) FROM
		}
		return plain
	})
	return plain
}
