package sql

import (
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindTry binds try(x): x's value, NULL for a row where computing it
// fails (executor's tryExpr). x binds as anywhere else, except that a
// constant that does not cast is left to fail when it runs (b.inTry), so
// try(CAST('x' AS INTEGER)) is NULL as in DuckDB; errors of the
// statement itself (unknown names, types that never cast, an aggregate
// inside, which DuckDB refuses too) stay errors.
func (b *binder) bindTry(name string, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	if len(srcs) != 1 {
		return nil, b.arity(at, name, "1")
	}
	c.aggOK, c.clause = false, "the TRY expression" // as DuckDB: no aggregates inside
	b.inTry++
	x, err := b.bindExpr(srcs[0], c)
	b.inTry--
	if err != nil {
		return nil, err
	}
	return &planner.Call{Fn: "try", Args: []planner.Expr{x}, T: x.Type()}, nil
}
