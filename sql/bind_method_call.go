package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// DuckDB's function chaining: x.f(args) is f(x, args). The parser marks
// the form it can tell from syntax, (expr).f(…) and chains after a call
// or index (ast.Func.Method, Args[0] the receiver), which binds as the
// plain call. A dotted name before the parenthesis, v.lower() or
// t.v.split(' '), it cannot tell from a schema-qualified function
// (main.lower('A')); methodCall decides here: a prefix that names a
// column (or a struct field path) is the receiver, else a schema prefix
// names where the function lives, which is the one namespace b2sql has.

// functionSchemas are the schema names a function may be qualified with.
var functionSchemas = map[string]bool{"main": true, "pg_catalog": true, "system": true, "temp": true}

// methodCall rewrites a call whose name has a dotted prefix into the
// plain call it stands for.
func (b *binder) methodCall(e *ast.Func, c ectx) (*ast.Func, error) {
	prefix := e.Name[:len(e.Name)-1]
	call := *e
	call.Name = ast.Name{e.Name.Last()}
	recv := &ast.ColumnRef{Span: prefix.Span(), Name: prefix}
	_, err := b.bindASTColumn(recv, c)
	if err == nil {
		call.Args = append([]ast.Expr{recv}, e.Args...)
		call.Method = true
		return &call, nil
	}
	if schemaPrefix(prefix) {
		return &call, nil
	}
	return nil, err
}

// schemaPrefix reports whether names is schema or catalog.schema for a
// function: main.lower('A'), memory.main.lower('A').
func schemaPrefix(names ast.Name) bool {
	last := names.Last()
	return len(names) <= 2 && !last.Quoted && functionSchemas[strings.ToLower(last.Name)]
}
