package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// builtinMacros are DuckDB's built-in macros that b2sql binds as the
// expression they expand to: each takes its arguments in order and
// returns the call that stands for it. regexp_split_to_table(text,
// pattern) is unnest(regexp_split_to_array(text, pattern)), so it makes
// rows in a select list as unnest does (and, as in DuckDB, is no table
// function).
var builtinMacros = map[string]struct {
	arity  int
	expand func(f *ast.Func) ast.Expr
}{
	"regexp_split_to_table": {2, func(f *ast.Func) ast.Expr {
		return astCall(f, "unnest", astCall(f, "regexp_split_to_array", f.Args...))
	}},
}

// builtinMacroCall expands a call of a builtinMacros name (callRewrites).
func builtinMacroCall(f *ast.Func) (ast.Expr, string, bool) {
	if len(f.Name) != 1 || f.Name[0].Quoted || f.Star || f.Distinct || f.Over != nil || f.Filter != nil ||
		len(f.OrderBy)+len(f.WithinGroup) > 0 {
		return nil, "", false
	}
	name := strings.ToLower(f.Name[0].Name)
	m, ok := builtinMacros[name]
	if !ok {
		return nil, "", false
	}
	for _, a := range f.Args {
		if _, named := a.(*ast.NamedArg); named {
			return nil, fmt.Sprintf("%s takes no named arguments", name), true
		}
	}
	if len(f.Args) != m.arity {
		return nil, fmt.Sprintf("%s expects %d arguments", name, m.arity), true
	}
	return m.expand(f), "", true
}

// astCall is a call of name over args, spanning f.
func astCall(f *ast.Func, name string, args ...ast.Expr) *ast.Func {
	return &ast.Func{Span: f.Span, Name: ast.Name{&ast.Ident{Span: f.Name[0].Span, Name: name}}, Args: args}
}
