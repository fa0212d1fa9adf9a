package sql

import (
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// repeatDerived is DuckDB's table function repeat(value, count) as the
// derived table it stands for: (SELECT value FROM range(count)), count
// rows of the value. range's rules apply to the count: it must be a
// constant; a NULL or negative one written as a literal is DuckDB's
// binder error (checkRepeatCount). The
// column is named after the value when it is written as a literal (as
// DuckDB names it by the value's text), else "repeat"; ok is false for
// any other call.
func repeatDerived(t *ast.TableFunc) (*ast.Derived, bool) {
	f := t.Func
	if len(f.Name) != 1 || !strings.EqualFold(f.Name[0].Name, "repeat") || len(f.Args) != 2 || f.Star || f.Distinct {
		return nil, false
	}
	for _, a := range f.Args {
		if _, named := a.(*ast.NamedArg); named {
			return nil, false
		}
	}
	sp := f.Span
	v, n := f.Args[0], f.Args[1]
	name := "repeat"
	if l, ok := v.(*ast.Literal); ok {
		name = l.Val
		if l.Kind == ast.LitNull {
			name = "NULL"
		}
	}
	rows := &ast.TableFunc{Span: sp, Func: astCall(f, "range", n)}
	sel := &ast.Select{Span: sp, Items: []*ast.SelectItem{{Span: sp, X: v, Alias: &ast.Ident{Span: sp, Name: name, Quoted: true}}}, From: []ast.TableRef{rows}}
	alias := t.Alias
	if alias == nil {
		alias = &ast.Alias{Span: sp, Name: &ast.Ident{Span: f.Name[0].Span, Name: "repeat"}}
	}
	return &ast.Derived{Span: t.Span, Query: &ast.Query{Span: sp, Body: sel}, Alias: alias, Sample: t.Sample}, true
}

// checkRepeatCount refuses repeat's count as DuckDB 1.5.6's binder does
// when it is NULL or a negative number.
func (b *binder) checkRepeatCount(t *ast.TableFunc) error {
	n := t.Func.Args[1]
	neg := false
	if u, ok := n.(*ast.Unary); ok && u.Op == "-" {
		n, neg = u.X, true
	}
	l, ok := n.(*ast.Literal)
	switch {
	case !ok:
		return nil
	case l.Kind == ast.LitNull && !neg:
		return b.errAt(b.q.tokAt(t.Func.Args[1].Extent().Start), ErrType, "Repeat second parameter cannot be NULL")
	case l.Kind == ast.LitNumber && (neg != strings.HasPrefix(l.Val, "-")) && strings.Trim(l.Val, "-+0.") != "":
		return b.errAt(b.q.tokAt(t.Func.Args[1].Extent().Start), ErrType, "Repeat second parameter cannot be less than 0")
	}
	return nil
}
