package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// distinctFrom builds l IS [NOT] DISTINCT FROM r (distinct: without NOT).
func (b *binder) distinctFrom(l, r planner.Expr, ls, rs callexpr.Expr, distinct bool, c ectx) (planner.Expr, error) {
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
