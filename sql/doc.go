// Package sql owns b2sql's SQL front end: splitting a script into
// statements, parsing one statement, and binding a query against a
// planner.Catalog into a bound logical plan (planner.Node) whose every name
// has become a ColID, every function a vocabulary entry (planner/functions.go)
// and every implicit conversion an explicit Cast.
//
// Parsing is delegated to the vitess MySQL parser, which never leaves this
// package: the text is first lexed by our own lexer, DuckDB-only syntax
// (FROM 'file.parquet', x::T, CAST(x AS T), ||, //, ILIKE, EXTRACT,
// NULLS FIRST, INTERVAL '1 day', DATE '…') is rewritten into forms the MySQL
// grammar accepts, and an offset map brings vitess' syntax-error positions
// back to the user's text. The vitess AST carries no positions, so binding
// errors are located by searching our own tokens within the clause or select
// item being bound.
//
// Every error is an *Error with a line:column inside the script and a Kind
// sentinel for errors.Is (ErrSyntax, ErrUnknownColumn, …).
//
// Typing follows DuckDB where the executor's vocabulary allows it; the
// deliberate differences are listed in types.go.
package sql
