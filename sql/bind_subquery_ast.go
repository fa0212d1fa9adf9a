package sql

import (
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// Subqueries written in the syntax tree bind as bind_subquery.go
// describes; the nested query is a subtree, bound by a child binder.

// astSubquery binds the nested query q of an expression; at is the token
// errors about it point at.
func (b *binder) astSubquery(q *ast.Query, c ectx, value bool) (*boundSub, error) {
	return b.bindSubquery(func() nestedQuery { return b.subQuery(q) }, b.q.tokAt(q.Start), c, value)
}

// bindSubqueryAST binds (q), EXISTS (q) and x [NOT] IN (q) inside an
// expression.
func (b *binder) bindSubqueryAST(e ast.Expr, c ectx) (planner.Expr, error) {
	switch e := e.(type) {
	case *ast.Subquery:
		at := b.q.tokAt(e.Query.Start)
		if e.Kind == ast.SubExists {
			at = b.q.tokAt(e.Start)
		}
		sub, err := b.bindSubquery(func() nestedQuery { return b.subQuery(e.Query) }, at, c, e.Kind == ast.SubScalar)
		if err != nil {
			return nil, err
		}
		if e.Kind == ast.SubExists {
			return b.existsMark(sub), nil
		}
		return b.scalarSub(sub), nil
	case *ast.InQuery:
		left, err := b.bindAST(e.X, c)
		if err != nil {
			return nil, err
		}
		sub, err := b.astSubquery(e.Query, c, true)
		if err != nil {
			return nil, err
		}
		return b.inMark(left, astSrc(e.X), sub, e.Not, c)
	}
	return nil, b.errAt(b.q.tokAt(e.Extent().Start), ErrUnsupported, "expression is not supported")
}

// astSemiConjunct binds a WHERE conjunct that is [NOT] EXISTS (q) or
// x IN (q) as a semi or anti join onto b.input; done is false for other
// conjuncts.
func (b *binder) astSemiConjunct(e ast.Expr, c ectx) (bool, error) {
	anti := false
	if n, ok := e.(*ast.Unary); ok && n.Op == "NOT" {
		if s, ok := n.X.(*ast.Subquery); ok && s.Kind == ast.SubExists {
			e, anti = s, true
		}
	}
	switch x := e.(type) {
	case *ast.Subquery:
		if x.Kind != ast.SubExists {
			return false, nil
		}
		sub, err := b.bindSubquery(func() nestedQuery { return b.subQuery(x.Query) }, b.q.tokAt(x.Start), c, false)
		if err != nil {
			return false, err
		}
		kind := planner.JoinSemi
		if anti {
			kind = planner.JoinAnti
		}
		b.joinSub(kind, sub, nil)
		return true, nil
	case *ast.InQuery:
		if x.Not {
			return false, nil
		}
		left, err := b.bindAST(x.X, c)
		if err != nil {
			return false, err
		}
		sub, err := b.astSubquery(x.Query, c, true)
		if err != nil {
			return false, err
		}
		key, err := b.inKey(left, astSrc(x.X), sub, c)
		if err != nil {
			return false, err
		}
		b.joinSub(planner.JoinSemi, sub, []planner.EquiKey{key})
		return true, nil
	}
	return false, nil
}
