package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// The shapes of subqueries that the rewrites of bind_subquery_list.go and
// bind_subquery_unnest_agg.go recognize.

// fromlessItem is the one select item of q when q is SELECT x and nothing
// else: no FROM, WHERE, GROUP BY, HAVING, window, QUALIFY, DISTINCT,
// WITH, ORDER BY, LIMIT or OFFSET, and no alias.
func fromlessItem(q *ast.Query) (ast.Expr, bool) {
	if q == nil || q.With != nil || len(q.OrderBy) > 0 || q.Limit != nil || q.Offset != nil {
		return nil, false
	}
	s, ok := q.Body.(*ast.Select)
	if !ok || len(s.Items) != 1 || len(s.From) > 0 || s.Where != nil || s.GroupBy != nil || s.Having != nil ||
		len(s.Windows) > 0 || s.Qualify != nil || s.Distinct || len(s.DistinctOn) > 0 {
		return nil, false
	}
	return s.Items[0].X, true
}

// unnestArg is l of unnest(l) (one plain argument).
func unnestArg(x ast.Expr) (ast.Expr, bool) {
	f, ok := x.(*ast.Func)
	if !ok || len(f.Name) != 1 || !strings.EqualFold(f.Name[0].Name, "unnest") || len(f.Args) != 1 || f.Star || f.Distinct ||
		f.Over != nil || f.Filter != nil || len(f.OrderBy)+len(f.WithinGroup) > 0 || f.Method {
		return nil, false
	}
	if _, named := f.Args[0].(*ast.NamedArg); named {
		return nil, false
	}
	return f.Args[0], true
}

// unnestQuery is l of SELECT unnest(l).
func unnestQuery(q *ast.Query) (ast.Expr, bool) {
	x, ok := fromlessItem(q)
	if !ok {
		return nil, false
	}
	return unnestArg(x)
}
