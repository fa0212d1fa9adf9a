package sql

import (
	"reflect"

	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/parser"
)

// syntaxIndex holds the syntax tree of a query's statement text, its
// expressions found by span. It is the bridge of the migration off vitess
// (issue 15): the statement-level binder still walks the vitess tree, and
// where it binds a clause expression (a select item, WHERE, HAVING, a
// GROUP BY or ORDER BY item) whose text is exactly one expression of the
// syntax tree, and every node of that expression has a bind case in
// bind_ast.go, the expression is bound from the syntax tree instead
// (bindClauseExpr). One index is shared by a query and the queries nested
// in it, which have the same statement text.
type syntaxIndex struct {
	built bool
	tree  ast.Stmt // the statement's tree when Parse had it already
	// exprs maps a span to the outermost expression with exactly that
	// span.
	exprs map[ast.Span]ast.Expr
	// selects maps a span to the SELECT with it, or to the body of
	// the query with it when that is a SELECT.
	selects map[ast.Span]*ast.Select
}

var exprType = reflect.TypeOf((*ast.Expr)(nil)).Elem()

// syntax returns the query's index, parsing its statement text the first
// time. A text the parser refuses (a shape only the older path takes)
// gives an empty index: every expression then binds from vitess.
func (q *Query) syntax() *syntaxIndex {
	if q.syn == nil {
		q.syn = &syntaxIndex{}
	}
	x := q.syn
	if x.built {
		return x
	}
	x.built = true
	tree := x.tree
	if tree == nil {
		var err error
		if tree, err = parser.Parse(q.src.Text); err != nil {
			return x
		}
	}
	x.exprs = map[ast.Span]ast.Expr{}
	x.selects = map[ast.Span]*ast.Select{}
	x.collect(reflect.ValueOf(tree))
	return x
}

// collect records every expression under v, outermost first.
func (x *syntaxIndex) collect(v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type().Implements(exprType) {
			if e, ok := v.Interface().(ast.Expr); ok {
				if _, seen := x.exprs[e.Extent()]; !seen {
					x.exprs[e.Extent()] = e
				}
			}
		}
		switch n := v.Interface().(type) {
		case *ast.Select:
			x.selects[n.Span] = n
		case *ast.Query:
			if s, ok := n.Body.(*ast.Select); ok {
				x.selects[n.Span] = s
			}
		}
		x.collect(v.Elem())
	case reflect.Slice:
		for i := range v.Len() {
			x.collect(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				x.collect(v.Field(i))
			}
		}
	}
}

// exprAt returns the syntax tree expression whose text is exactly the
// tokens of sp (parentheses around the whole span are not part of it), or
// nil.
func (q *Query) exprAt(sp span) ast.Expr {
	lo, hi := sp.lo, sp.hi
	if lo < 0 || hi > len(q.toks) || lo >= hi {
		return nil
	}
	for hi-lo > 2 && q.toks[lo].isOp("(") && matchParen(q.toks, lo) == hi-1 {
		lo, hi = lo+1, hi-1
	}
	x := q.syntax()
	if x.exprs == nil {
		return nil
	}
	return x.exprs[ast.Span{Start: q.toks[lo].off, End: q.toks[hi-1].end}]
}

// selectSyntax returns the syntax tree SELECT of the query's own text,
// or nil.
func (q *Query) selectSyntax() *ast.Select {
	if len(q.toks) == 0 {
		return nil
	}
	x := q.syntax()
	if x.selects == nil {
		return nil
	}
	return x.selects[ast.Span{Start: q.toks[0].off, End: q.toks[len(q.toks)-1].end}]
}

// tokAt returns the index of the query's token at byte offset off (the
// first one at or after it), for the token-indexed error positions the
// vitess path uses.
func (q *Query) tokAt(off int) int {
	lo, hi := 0, len(q.toks)
	for lo < hi {
		m := (lo + hi) / 2
		if q.toks[m].off < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// sharedSyntax returns the index (built or not) for a query nested in q.
func (q *Query) sharedSyntax() *syntaxIndex {
	if q.syn == nil {
		q.syn = &syntaxIndex{}
	}
	return q.syn
}

// orderExprSpan is an ORDER BY item's span without its ASC/DESC and
// NULLS FIRST/LAST.
func (q *Query) orderExprSpan(sp span) span {
	for sp.hi-sp.lo > 1 && sp.hi <= len(q.toks) {
		t := q.toks[sp.hi-1]
		switch {
		case t.is("ASC") || t.is("DESC"):
			sp.hi--
		case (t.is("FIRST") || t.is("LAST")) && sp.hi-sp.lo > 2 && q.toks[sp.hi-2].is("NULLS"):
			sp.hi -= 2
		default:
			return sp
		}
	}
	return sp
}
