package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// callRewrites are the calls that stand for another expression, each
// returning it (ok), or why the call is wrong: switch(x, MAP {…})
// (bind_func_switch.go), the operator functions below and the macros
// of bind_func_macros.go.
var callRewrites = []func(*ast.Func) (ast.Expr, string, bool){switchCall, operatorCall, builtinMacroCall}

// rewriteCall returns the expression call f stands for (callRewrites).
func rewriteCall(f *ast.Func) (x ast.Expr, why string, ok bool) {
	for _, r := range callRewrites {
		if x, why, ok := r(f); ok {
			return x, why, true
		}
	}
	return nil, "", false
}

// operatorFuncs are DuckDB's function names of the arithmetic operators,
// each with the operator for two arguments and for one ("" : none):
// add(a, b) is a + b, subtract(a) is -a, divide(a, b) is a // b (integer
// division of integers, as DuckDB's divide()).
var operatorFuncs = map[string][2]string{
	"add":      {"+", "+"},
	"subtract": {"-", "-"},
	"multiply": {"*", ""},
	"divide":   {"//", ""},
}

// operatorCall rewrites add/subtract/multiply/divide(…) into the
// operator expression they name, so that they type and compute exactly
// as the operator does (dates, intervals, decimals); ok is false for any
// other call, why is DuckDB's kind of error for a wrong argument count.
func operatorCall(f *ast.Func) (x ast.Expr, why string, ok bool) {
	if len(f.Name) != 1 || f.Name[0].Quoted || f.Star || f.Distinct || f.Over != nil || f.Filter != nil ||
		len(f.OrderBy)+len(f.WithinGroup) > 0 {
		return nil, "", false
	}
	name := strings.ToLower(f.Name[0].Name)
	ops, known := operatorFuncs[name]
	if !known {
		return nil, "", false
	}
	for _, a := range f.Args {
		if _, named := a.(*ast.NamedArg); named {
			return nil, "", false
		}
	}
	switch {
	case len(f.Args) == 2:
		return &ast.Binary{Span: f.Span, Op: ops[0], L: f.Args[0], R: f.Args[1]}, "", true
	case len(f.Args) == 1 && ops[1] == "+":
		return f.Args[0], "", true
	case len(f.Args) == 1 && ops[1] != "":
		return &ast.Unary{Span: f.Span, Op: ops[1], X: f.Args[0]}, "", true
	case ops[1] != "":
		return nil, fmt.Sprintf("%s expects 1 or 2 arguments", name), true
	}
	return nil, fmt.Sprintf("%s expects 2 arguments", name), true
}
