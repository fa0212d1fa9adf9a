package sql

import (
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// fn makes the call name(args) standing for the syntax at at.
func fn(name string, at ast.Span, distinct bool, args ...callexpr.Expr) *callexpr.FuncExpr {
	f := &callexpr.FuncExpr{At: at, Name: callexpr.NewColIdent(name), Distinct: distinct}
	for _, a := range args {
		f.Exprs = append(f.Exprs, &callexpr.AliasedExpr{Expr: a})
	}
	return f
}
