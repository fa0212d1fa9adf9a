package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// bindPositional binds #n, DuckDB's positional reference: the n-th column
// of the FROM clause, counted as SELECT * lists them (so a USING column
// once, virtual columns not at all). In the ORDER BY of a set operation
// #n is the n-th output column instead, as an ordinal is (bind_setop.go).
func (b *binder) bindPositional(e *ast.PositionalRef, c ectx) (planner.Expr, error) {
	at := b.q.tokAt(e.Start)
	var items []selItem
	if len(b.scope) > 0 {
		var err error
		if items, err = b.starItems(&ast.Star{Span: e.Span}); err != nil {
			return nil, err
		}
	}
	if e.Index < 1 || e.Index > len(items) {
		return nil, b.errAt(at, ErrUnknownColumn, fmt.Sprintf("positional reference %d out of range (total %d columns)", e.Index, len(items)))
	}
	it := items[e.Index-1]
	if it.star != nil {
		return &planner.ColRef{Col: *it.star}, nil
	}
	ic := c
	ic.sp = it.sp
	return b.bindClauseExpr(it.src, ic)
}
