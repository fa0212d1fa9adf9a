package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// markDistinct wraps the right operand of x IS DISTINCT FROM y, which the
// rewriter turns into x <=> b2sql_is_distinct(y); IS NOT DISTINCT FROM is
// plain <=> (a user's own <=> is refused by the rewriter).
const markDistinct = "b2sql_is_distinct"

// bindDistinctFrom binds x IS [NOT] DISTINCT FROM y: equality in which
// NULL equals NULL and differs from every value, never NULL itself.
func (b *binder) bindDistinctFrom(e *sqlparser.ComparisonExpr, c ectx) (planner.Expr, error) {
	right, distinct := e.Right, false
	if f, ok := right.(*sqlparser.FuncExpr); ok && f.Name.EqualString(markDistinct) && len(f.Exprs) == 1 {
		if ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr); ok {
			right, distinct = ae.Expr, true
		}
	}
	l, err := b.bindExpr(e.Left, c)
	if err != nil {
		return nil, err
	}
	r, err := b.bindExpr(right, c)
	if err != nil {
		return nil, err
	}
	return b.distinctFrom(l, r, e.Left, right, distinct, c)
}

// distinctFrom builds l IS [NOT] DISTINCT FROM r (distinct: without NOT).
func (b *binder) distinctFrom(l, r planner.Expr, ls, rs sqlparser.Expr, distinct bool, c ectx) (planner.Expr, error) {
	eq, err := b.compare("=", l, r, ls, rs, c)
	if err != nil {
		return nil, err
	}
	call, ok := eq.(*planner.Call)
	if !ok || len(call.Args) != 2 {
		return nil, b.typeErr(ls, c, "cannot compare these operands with IS DISTINCT FROM")
	}
	boolCall := func(fn string, args ...planner.Expr) planner.Expr {
		return &planner.Call{Fn: fn, Args: args, T: columnar.TBool}
	}
	ln, rn := boolCall("is_null", call.Args[0]), boolCall("is_null", call.Args[1])
	// CASE WHEN x IS NULL OR y IS NULL THEN x IS NULL AND y IS NULL ELSE x = y END
	same := planner.Expr(&planner.Case{
		Whens: []planner.When{{Cond: boolCall("or", ln, rn), Then: boolCall("and", ln, rn)}},
		Else:  eq, T: columnar.TBool,
	})
	if distinct {
		same = boolCall("not", same)
	}
	return same, nil
}
