package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// switchCall rewrites DuckDB's switch(x, MAP {k: v, …} [, default]),
// which picks the value the map literal holds for key x, else default
// (NULL without one), into
//
//	CASE WHEN map_contains(m, x) THEN m[x] ELSE default END
//
// ok is false for any other call. As DuckDB 1.5, the map must be a
// literal with entries whose keys are literals; why says which rule a
// call breaks (DuckDB's words), when it does.
func switchCall(f *ast.Func) (x ast.Expr, why string, ok bool) {
	if len(f.Name) != 1 || f.Name[0].Quoted || !strings.EqualFold(f.Name[0].Name, "switch") || f.Star || f.Distinct ||
		len(f.Args) < 2 || len(f.Args) > 3 || f.Over != nil || f.Filter != nil || len(f.OrderBy)+len(f.WithinGroup) > 0 || f.Method {
		return nil, "", false
	}
	for _, a := range f.Args {
		if _, named := a.(*ast.NamedArg); named {
			return nil, "", false
		}
	}
	m, lit := f.Args[1].(*ast.Map)
	switch {
	case !lit:
		return nil, "SWITCH expected a constant map for the cases", true
	case len(m.Entries) == 0:
		return nil, "No values provided for SWITCH expression", true
	}
	for _, e := range m.Entries {
		if _, ok := e.Key.(*ast.Literal); !ok {
			if refersToColumns(e.Key) {
				return nil, "SWITCH expected a constant map for the cases", true
			}
			return nil, "Only constant expressions are supported for keys inside SWITCH", true
		}
	}
	sp := f.Span
	has := &ast.Func{Span: sp, Name: ast.Name{{Span: sp, Name: "map_contains"}}, Args: []ast.Expr{m, f.Args[0]}}
	c := &ast.Case{Span: sp, Whens: []*ast.When{{Span: sp, Cond: has, Then: &ast.Index{Span: sp, X: m, Index: f.Args[0]}}}}
	if len(f.Args) == 3 {
		c.Else = f.Args[2]
	}
	return c, "", true
}

// refersToColumns reports whether e reads a column.
func refersToColumns(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(x ast.Expr) bool {
		if _, ok := x.(*ast.ColumnRef); ok {
			found = true
		}
		return !found
	})
	return found
}
