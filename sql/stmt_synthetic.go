package sql

import "github.com/b2sql/b2sql/sql/ast"

// Queries that statements stand for (DESCRIBE, SUMMARIZE), made of nodes
// spanning the statement.

// starQuery is SELECT * FROM name (a path when path is set; else the
// parts of a relation's name) for DESCRIBE, whose name is src's only
// token, so that binding errors point at it.
func starQuery(src Source, name []string, path bool) (*Query, error) {
	all := ast.Span{Start: 0, End: len(src.Text)}
	t := &ast.Table{Span: all}
	if path {
		t.Path = name[0]
	} else {
		for _, p := range name {
			t.Name = append(t.Name, &ast.Ident{Span: all, Name: p})
		}
	}
	return syntheticQuery(src, t)
}

// syntheticQuery is SELECT * FROM from for a statement that stands for
// one (DESCRIBE, SUMMARIZE), every node spanning the statement src.
func syntheticQuery(src Source, from ast.TableRef) (*Query, error) {
	all := ast.Span{Start: 0, End: len(src.Text)}
	sel := &ast.Select{Span: all, Items: []*ast.SelectItem{{Span: all, X: &ast.Star{Span: all}}}, From: []ast.TableRef{from}}
	q, err := astQuery(src, &ast.Query{Span: all, Body: sel})
	if err == nil && q == nil {
		err = errAt(src, 0, ErrUnsupported, "statement is not supported")
	}
	return q, err
}

// summarizeQuery is SELECT * FROM summarize('arg') for SUMMARIZE of a
// table, a path or a query (bind_summarize.go); src is the argument's
// text in the statement, where its errors point.
func summarizeQuery(src Source, arg string) (*Query, error) {
	all := ast.Span{Start: 0, End: len(src.Text)}
	f := &ast.Func{Span: all, Name: ast.Name{&ast.Ident{Span: all, Name: "summarize"}},
		Args: []ast.Expr{&ast.Literal{Span: all, Kind: ast.LitString, Val: arg}}}
	return syntheticQuery(src, &ast.TableFunc{Span: all, Func: f})
}
