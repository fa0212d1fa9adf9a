package sql

import (
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// DuckDB's QUALIFY cond filters rows by window function results, as
// HAVING filters groups: SELECT … QUALIFY row_number() OVER (…) = 1. The
// condition is bound over the select list's scope, with
// window functions (computed by the query's one Window node), aggregates
// when the query groups, and select aliases.

// qualify binds the QUALIFY condition cond, written at sp.
func (b *binder) qualify(cond callexpr.Expr, sp span, aggregating bool) (planner.Expr, error) {
	c := ectx{sp: sp, clause: "QUALIFY", aggOK: aggregating}
	x, err := b.bindClauseExpr(cond, c)
	if err != nil {
		return nil, err
	}
	if aggregating {
		if x, err = b.finalize(x, cond, c); err != nil {
			return nil, err
		}
	}
	return b.boolean(x, cond, c, "QUALIFY")
}
