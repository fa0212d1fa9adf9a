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
// (main.lower('A')); methodCall decides here: a schema prefix names
// where the function lives (the one namespace b2sql has), even beside a
// column of that name, as in DuckDB; else the prefix names a column (or
// a struct field path), the receiver.

// functionSchemas are the schema names a function may be qualified with.
var functionSchemas = map[string]bool{"main": true, "pg_catalog": true, "system": true, "temp": true}

// methodCall rewrites a call whose name has a dotted prefix into the
// plain call it stands for.
func (b *binder) methodCall(e *ast.Func, c ectx) (*ast.Func, error) {
	prefix := e.Name[:len(e.Name)-1]
	call := *e
	call.Name = ast.Name{e.Name.Last()}
	if schemaPrefix(prefix) {
		return &call, nil // before a column of that name, as DuckDB
	}
	recv := &ast.ColumnRef{Span: prefix.Span(), Name: prefix}
	if _, err := b.bindASTColumn(recv, c); err != nil {
		return nil, err
	}
	call.Args = append([]ast.Expr{recv}, e.Args...)
	call.Method = true
	return &call, nil
}

// schemaPrefix reports whether names is schema or catalog.schema for a
// function: main.lower('A'), memory.main.lower('A').
func schemaPrefix(names ast.Name) bool {
	last := names.Last()
	return len(names) <= 2 && !last.Quoted && functionSchemas[strings.ToLower(last.Name)]
}
