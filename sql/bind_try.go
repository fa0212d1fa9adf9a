package sql

import "github.com/b2sql/b2sql/planner"

// bindTry binds try(x): x's value, NULL for a row where computing it
// fails (executor's tryExpr). x binds as anywhere else, except that a
// constant that does not cast is left to fail when it runs (b.inTry), so
// try(CAST('x' AS INTEGER)) is NULL as in DuckDB; errors of the
// statement itself (unknown names, types that never cast, an aggregate
// inside, which DuckDB refuses too) stay errors.
func bindTry(b *binder, f *fnCall) (planner.Expr, error) {
	if len(f.srcs) != 1 {
		return nil, b.arity(f.at, f.name, "1")
	}
	c := f.c
	c.aggOK, c.clause = false, "the TRY expression" // as DuckDB: no aggregates inside
	b.inTry++
	x, err := b.bindExpr(f.srcs[0], c)
	b.inTry--
	if err != nil {
		return nil, err
	}
	return &planner.Call{Fn: "try", Args: []planner.Expr{x}, T: x.Type()}, nil
}
