package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// agg(args) FILTER (WHERE cond), not OVER a window: cond is bound once, in
// the aggregate's input, and every aggregate call the binding of agg adds
// (one, or several for the aggregates bound as rewrites: avg as sum and
// count, wide sums as limb sums, ordered list and string_agg) carries it
// as planner.AggCall.Filter. The executor then folds only the rows where
// cond is TRUE into that call (executor/aggfilter.go): the others are not
// seen at all, so list() does not list them as NULLs and first() does not
// pick one, as in DuckDB. (Window aggregates fold FILTER into their
// arguments instead: bind_window.go filteredArgs.)

// bindFilteredAgg binds call e, which has a FILTER, with bind.
func (b *binder) bindFilteredAgg(e *ast.Func, c ectx, bind func() (planner.Expr, error)) (planner.Expr, error) {
	name := strings.ToLower(e.Name[0].Name)
	at := b.q.tokAt(e.Start)
	notAgg := b.errAt(at, ErrSyntax, fmt.Sprintf("FILTER is only valid for aggregate functions, not %s", name))
	if !windowAggNames[name] && !isAggName(name) {
		return nil, notAgg
	}
	if c.inAgg || !c.aggOK || b.agg == nil {
		return bind() // which reports the nested or misplaced aggregate
	}
	ac := c
	ac.inAgg, ac.aggOK = true, false
	cond, err := b.bindAST(e.Filter, ac)
	if err != nil {
		return nil, err
	}
	if cond, err = b.boolean(cond, astSrc(e.Filter), ac, "FILTER"); err != nil {
		return nil, err
	}
	a := b.agg
	outer, outerUsed := a.filter, a.filterUsed
	a.filter, a.filterUsed = cond, false
	x, err := bind()
	used := a.filterUsed
	a.filter, a.filterUsed = outer, outerUsed
	if err == nil && !used {
		return nil, notAgg
	}
	return x, err
}
