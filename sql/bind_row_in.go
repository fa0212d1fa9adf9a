package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
)

// A row value on the left of IN (q), = ANY (q) or <> ALL (q):
// (a, b) IN (SELECT x, y …) or row(a, b) IN (…); and of <> ANY (q) and
// = ALL (q), which rowMatch writes as IN is written below with "some
// column unequal" for "every column equal". DuckDB compares it with
// each row of q column by column, with SQL's three-valued logic: TRUE
// when some row has every column equal, else NULL when some row has no
// column decisively unequal (a NULL on either side stands in for the
// rest), else FALSE (also for an empty q); NOT IN is its negation. That
// is, with r the conjunction l1 = c1 AND … AND ln = cn over q's rows:
//
//	CASE WHEN EXISTS (SELECT 1 FROM q WHERE r) THEN TRUE
//	     WHEN EXISTS (SELECT 1 FROM q WHERE r IS NULL) THEN NULL
//	     ELSE FALSE END
//
// which rowIn writes as syntax and the binder binds as it binds any
// EXISTS (correlated through the row's columns when they read the
// outer query's). A one-element row is its element.
//
// The first EXISTS decorrelates into a hash join on the equalities; r IS
// NULL has none, so its EXISTS would compare every row with every row of q
// (10,000 × 10,000 took 1.6 s). r can only be NULL where q's row or the
// left row holds a NULL, so it is split in two: q's rows with a NULL
// column (usually none: the join's right side is filtered first), and,
// for left rows with a NULL element only, every row of q (through a
// derived table of one row that exists only then, whose outer references
// make the dependent join's domain just those left rows).

// rowElems are the elements of a row value: (a, b) or row(a, b).
func rowElems(e ast.Expr) ([]ast.Expr, bool) {
	switch e := e.(type) {
	case *ast.Row:
		return e.Elems, true
	case *ast.Func:
		if len(e.Name) == 1 && strings.EqualFold(e.Name[0].Name, "row") && len(e.Args) > 0 && !e.Star && !e.Distinct &&
			len(e.OrderBy)+len(e.WithinGroup) == 0 && e.Filter == nil && e.Over == nil && !e.Method {
			for _, a := range e.Args {
				if _, named := a.(*ast.NamedArg); named {
					return nil, false
				}
			}
			return e.Args, true
		}
	}
	return nil, false
}

// rowIn rewrites e when its left side is a row value; ok is false
// otherwise.
func rowIn(e *ast.InQuery) (ast.Expr, bool) {
	elems, ok := rowElems(e.X)
	if !ok {
		return nil, false
	}
	if len(elems) == 1 {
		return &ast.InQuery{Span: e.Span, X: elems[0], Query: e.Query, Not: e.Not}, true
	}
	return rowMatch(e.Span, elems, e.Query, false, e.Not), true
}

// rowMatch is the CASE above for the row elems against q: with differ
// false, TRUE when some row of q has every column equal (IN); with differ
// true, TRUE when some row has some column decisively unequal (<> ANY).
// Both are NULL under the same condition (r IS NULL is r' IS NULL), and
// not negates the whole (NOT IN; = ALL is NOT (<> ANY)).
func rowMatch(sp ast.Span, elems []ast.Expr, query *ast.Query, differ, not bool) ast.Expr {
	cols := make([]*ast.Ident, len(elems))
	var r, hit ast.Expr
	for i, l := range elems {
		cols[i] = &ast.Ident{Span: sp, Name: "__in_" + strconv.Itoa(i+1)}
		c := &ast.ColumnRef{Span: sp, Name: ast.Name{cols[i]}}
		eq := &ast.Binary{Span: sp, Op: "=", L: l, R: c}
		ne := &ast.Binary{Span: sp, Op: "<>", L: l, R: c}
		if r == nil {
			r, hit = eq, ne
		} else {
			r = &ast.Binary{Span: sp, Op: "AND", L: r, R: eq}
			hit = &ast.Binary{Span: sp, Op: "OR", L: hit, R: ne}
		}
	}
	if !differ {
		hit = r
	}
	one := func() []*ast.SelectItem {
		return []*ast.SelectItem{{Span: sp, X: &ast.Literal{Span: sp, Kind: ast.LitNumber, Val: "1"}}}
	}
	exists := func(cond ast.Expr, before ...ast.TableRef) ast.Expr {
		from := append(before, &ast.Derived{Span: sp, Query: query, Alias: &ast.Alias{Span: sp, Name: &ast.Ident{Span: sp, Name: "__in"}, Columns: cols}})
		q := &ast.Query{Span: sp, Body: &ast.Select{Span: sp, Items: one(), From: from, Where: cond}}
		return &ast.Subquery{Span: sp, Kind: ast.SubExists, Query: q}
	}
	anyNull := func(xs []ast.Expr) ast.Expr {
		var or ast.Expr
		for _, x := range xs {
			var n ast.Expr = &ast.Is{Span: sp, X: x, What: "NULL"}
			if or != nil {
				n = &ast.Binary{Span: sp, Op: "OR", L: or, R: n}
			}
			or = n
		}
		return or
	}
	colRefs := make([]ast.Expr, len(cols))
	for i, c := range cols {
		colRefs[i] = &ast.ColumnRef{Span: sp, Name: ast.Name{c}}
	}
	unknown := &ast.Is{Span: sp, X: r, What: "NULL"}
	leftNull := &ast.Derived{Span: sp, Alias: &ast.Alias{Span: sp, Name: &ast.Ident{Span: sp, Name: "__in_null"}},
		Query: &ast.Query{Span: sp, Body: &ast.Select{Span: sp, Items: one(), Where: anyNull(elems)}}}
	lit := func(kind ast.LitKind, v string) ast.Expr { return &ast.Literal{Span: sp, Kind: kind, Val: v} }
	var out ast.Expr = &ast.Case{Span: sp, Whens: []*ast.When{
		{Span: sp, Cond: exists(hit), Then: lit(ast.LitBool, "true")},
		{Span: sp, Cond: exists(&ast.Binary{Span: sp, Op: "AND", L: anyNull(colRefs), R: unknown}), Then: lit(ast.LitNull, "NULL")},
		{Span: sp, Cond: exists(unknown, leftNull), Then: lit(ast.LitNull, "NULL")},
	}, Else: lit(ast.LitBool, "false")}
	if not {
		out = &ast.Unary{Span: sp, Op: "NOT", X: out}
	}
	return out
}

// checkRowWidth refuses a row IN (q) whose q has another number of
// columns than the row has elements (DuckDB's "Subquery returns 1 columns
// - expected 2"), which the rewrite's column names would not catch when q
// has more.
func (b *binder) checkRowWidth(e *ast.InQuery) error {
	elems, ok := rowElems(e.X)
	if !ok || len(elems) < 2 {
		return nil
	}
	bd, _, err := b.bindNested(b.subQuery(e.Query), true)
	if err != nil {
		return err
	}
	if len(bd.Names) != len(elems) {
		return b.errAt(b.q.tokAt(e.Query.Start), ErrType, fmt.Sprintf("Subquery returns %d columns - expected %d", len(bd.Names), len(elems)))
	}
	return nil
}

// rowInAST is rowIn for the binder: the rewrite of e, after checking the
// subquery's width; ok is false when its left side is not a row value.
func (b *binder) rowInAST(e *ast.InQuery) (ast.Expr, bool, error) {
	x, ok := rowIn(e)
	if !ok {
		return nil, false, nil
	}
	return x, true, b.checkRowWidth(e)
}

// rowDiffersAST rewrites (a, b) <> ANY (q) and (a, b) = ALL (q) against a
// q of as many columns (rowMatch with differ); ok is false for other
// forms, and for a q of one column (a STRUCT, compared as one value).
func (b *binder) rowDiffersAST(e *ast.Quantified) (ast.Expr, bool, error) {
	neAny := (e.Op == "<>" || e.Op == "!=") && e.Quant == "ANY"
	eqAll := e.Op == "=" && e.Quant == "ALL"
	elems, isRow := rowElems(e.X)
	if e.Query == nil || !neAny && !eqAll || !isRow || len(elems) < 2 {
		return nil, false, nil
	}
	bd, _, err := b.bindNested(b.subQuery(e.Query), true)
	if err != nil {
		return nil, true, err
	}
	switch len(bd.Names) {
	case 1:
		return nil, false, nil
	case len(elems):
		return rowMatch(e.Span, elems, e.Query, true, eqAll), true, nil
	}
	return nil, true, b.errAt(b.q.tokAt(e.Query.Start), ErrType, fmt.Sprintf("Subquery returns %d columns - expected %d", len(bd.Names), len(elems)))
}
