package sql

import (
	"errors"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/parser"
)

// A column's DEFAULT is kept with its table as the text the CREATE TABLE
// statement wrote (ColumnDef.Default), the way a view keeps its query,
// and bound anew by each statement that fills a row with it: INSERT for
// the columns it leaves out, DEFAULT in a VALUES row, INSERT … DEFAULT
// VALUES, UPDATE … SET c = DEFAULT. As in DuckDB it is evaluated per row
// (DEFAULT random() gives every row its own value) and may not read
// columns or run a subquery.

// BindDefault binds the DEFAULT expression src.Text of a column of type t
// (src positions its errors, e.g. in the CREATE TABLE that wrote it) into
// an expression of type t that reads no input column.
func BindDefault(src Source, t columnar.Type, cat planner.Catalog) (planner.Expr, error) {
	if src.Line <= 0 {
		src.Line, src.Col = 1, 1
	}
	e, q, err := exprQuery(src)
	if err != nil {
		return nil, err
	}
	sp := e.Extent()
	if astHasSubquery(e) { // bind_group_subquery.go
		// Even (SELECT 1), which binds without a join (bind_subquery_list.go).
		return nil, errAt(src, sp.Start, ErrUnsupported, "a DEFAULT cannot contain a subquery")
	}
	bound, err := Bind(q, cat)
	if err != nil {
		return nil, err
	}
	p, ok := bound.Root.(*planner.Project)
	if v, one := p.Input.(*planner.Values); !ok || !one || len(p.Exprs) != 1 || len(v.Rows) != 1 || len(v.Out) != 0 {
		return nil, errAt(src, sp.Start, ErrUnsupported, "a DEFAULT cannot contain a subquery")
	}
	x := p.Exprs[0]
	reads := false
	planner.WalkExpr(x, func(y planner.Expr) {
		_, col := y.(*planner.ColRef)
		reads = reads || col
	})
	if reads {
		return nil, errAt(src, sp.Start, ErrUnsupported, "a DEFAULT cannot read a column")
	}
	if x.Type() != t {
		x = &planner.Cast{Arg: x, To: t}
	}
	return x, nil
}

// exprQuery parses src, an expression kept as text (a DEFAULT, a
// generated column), into the query SELECT <it> of its own tokens, its
// errors positioned in src (at line 1, column 1 when src has no place).
func exprQuery(src Source) (ast.Expr, *Query, error) {
	if src.Line <= 0 {
		src.Line, src.Col = 1, 1
	}
	e, err := parseExprAt(src)
	if err != nil {
		return nil, nil, err
	}
	sp := e.Extent()
	tree := &ast.Query{Span: sp, Body: &ast.Select{Span: sp, Items: []*ast.SelectItem{{Span: sp, X: e}}}}
	q, err := astQuery(src, tree)
	return e, q, err
}

// parseExprAt parses src, its errors positioned in src.
func parseExprAt(src Source) (ast.Expr, error) {
	e, perr := parser.ParseExpr(src.Text)
	if perr != nil {
		var pe *parser.Error
		if errors.As(perr, &pe) {
			return nil, errAt(src, pe.Offset, ErrSyntax, pe.Msg)
		}
		return nil, errAt(src, 0, ErrSyntax, perr.Error())
	}
	return e, nil
}

// DefaultSource is the Source of column c's DEFAULT, positioned where its
// CREATE TABLE wrote it.
func DefaultSource(c ColumnDef) Source {
	return Source{Text: c.Default, Line: c.DefaultPos.Line, Col: c.DefaultPos.Col}
}

// defaultCell binds DEFAULT written as the k-th value of a row of the
// query's VALUES (INSERT … VALUES (DEFAULT, …)), through the hook the
// INSERT set (SetDefaults).
func (b *binder) defaultCell(d *ast.Default, k int) (planner.Expr, error) {
	if b.q.defaults == nil {
		return nil, b.errAt(b.q.tokAt(d.Start), ErrSyntax, "DEFAULT is allowed only as a value of INSERT … VALUES or UPDATE … SET")
	}
	x, err := b.q.defaults(k)
	if err != nil {
		var se *Error
		if !errors.As(err, &se) {
			err = b.errAt(b.q.tokAt(d.Start), ErrType, fmt.Sprintf("DEFAULT: %v", err))
		}
		return nil, err
	}
	return x, nil
}

// SetDefaults makes DEFAULT in a row of q's VALUES body bind to fill(k),
// k being the value's place in its row: INSERT sets it to the DEFAULT of
// the table column that place fills.
func (q *Query) SetDefaults(fill func(k int) (planner.Expr, error)) { q.defaults = fill }
