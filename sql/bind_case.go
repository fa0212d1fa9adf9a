package sql

import (
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindCase binds searched and simple CASE (the latter as x = v arms).
func (b *binder) bindCase(e *callexpr.CaseExpr, c ectx) (planner.Expr, error) {
	var subject planner.Expr
	if e.Expr != nil {
		x, err := b.bindExpr(e.Expr, c)
		if err != nil {
			return nil, err
		}
		subject = x
	}
	out := &planner.Case{}
	var thens []planner.Expr
	var thenSrcs []callexpr.Expr
	for _, w := range e.Whens {
		cond, err := b.bindExpr(w.Cond, c)
		if err != nil {
			return nil, err
		}
		if subject != nil {
			if cond, err = b.compare("=", subject, cond, e.Expr, w.Cond, c); err != nil {
				return nil, err
			}
		} else if cond, err = b.boolean(cond, w.Cond, c, "WHEN"); err != nil {
			return nil, err
		}
		then, err := b.bindExpr(w.Val, c)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, planner.When{Cond: cond})
		thens = append(thens, then)
		thenSrcs = append(thenSrcs, w.Val)
	}
	if e.Else != nil {
		x, err := b.bindExpr(e.Else, c)
		if err != nil {
			return nil, err
		}
		thens = append(thens, x)
		thenSrcs = append(thenSrcs, e.Else)
	}
	thens, t, err := b.unify(thens, thenSrcs, c, false, "mix")
	if err != nil {
		return nil, err
	}
	for i := range out.Whens {
		out.Whens[i].Then = thens[i]
	}
	if e.Else != nil {
		out.Else = thens[len(thens)-1]
	}
	out.T = t
	return out, nil
}
