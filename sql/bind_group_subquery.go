package sql

import (
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// A group key that holds a subquery is matched by its syntax, as DuckDB
// matches every group expression: SELECT a + (SELECT min(x) FROM s) …
// GROUP BY a + (SELECT min(x) FROM s) groups by the key and reads it back.
// The printed form finalize matches other keys by cannot tell two such
// keys apart: a subquery's output column prints by its name only, so
// (SELECT min(x) FROM s) and (SELECT min(x) FROM u) would look equal.

// addGroupSyntax adds group key x, written as n.
func (b *binder) addGroupSyntax(x planner.Expr, n ast.Expr) {
	b.addGroup(x)
	if astHasSubquery(n) {
		b.agg.subqKeys = append(b.agg.subqKeys, syntaxKey{n: n, i: len(b.agg.groups) - 1})
	}
}

// subqueryKey returns the output column of the subquery-bearing group key
// written as e, when e is bound above the Aggregate.
func (b *binder) subqueryKey(e ast.Expr) (planner.Expr, bool) {
	if !b.postAgg || b.agg == nil {
		return nil, false
	}
	for _, k := range b.agg.subqKeys {
		if ast.Equal(k.n, e) {
			return &planner.ColRef{Col: b.agg.groupCols[k.i]}, true
		}
	}
	return nil, false
}

// isSubqueryKey reports whether group key i holds a subquery.
func (a *aggState) isSubqueryKey(i int) bool {
	for _, k := range a.subqKeys {
		if k.i == i {
			return true
		}
	}
	return false
}

// astHasSubquery reports whether e holds a subquery of any kind.
func astHasSubquery(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(x ast.Expr) bool {
		switch x.(type) {
		case *ast.Subquery, *ast.InQuery:
			found = true
		case *ast.Quantified:
			found = found || x.(*ast.Quantified).Query != nil
		}
		return !found
	})
	return found
}

func (b *binder) addGroup(x planner.Expr) {
	a := b.agg
	name := x.String()
	if r, ok := x.(*planner.ColRef); ok {
		name = r.Col.Name
	}
	a.groups = append(a.groups, x)
	a.groupCols = append(a.groupCols, b.newCol(name, "", x.Type()))
}
