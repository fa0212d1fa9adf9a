package sql

import (
	"maps"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// string_agg(DISTINCT x, sep ORDER BY k) and list(DISTINCT x ORDER BY k)
// in GROUP BY, as DuckDB: the keys must be the argument or computed from
// it (ORDER BY x DESC, ORDER BY unicode(x)), so each distinct x has one
// place in the order. The group's distinct entries struct_pack(k…, x)
// are collected by list(DISTINCT …) — one per distinct x, as the keys
// follow from x — and sorted when the group is done, as an ordered
// aggregate's entries are (sortedInGroup). A NULL x is one entry: list
// keeps it once, string_agg skips it, as DuckDB.

// distinctInOrder binds ordered aggregate a.aggs[idx], a DISTINCT
// string_agg or list bound at or after index before, with ORDER BY keys
// (its call at token at).
func (b *binder) distinctInOrder(idx, before int, keys []planner.SortKey, at int) (planner.Expr, error) {
	a := b.agg
	call := a.aggs[idx]
	from := map[planner.ColID]bool{}
	planner.ExprCols(call.Arg, from)
	for _, k := range keys {
		uses := map[planner.ColID]bool{}
		planner.ExprCols(k.Expr, uses)
		for id := range uses {
			if !from[id] {
				return nil, b.errAt(at, ErrSyntax, "In a DISTINCT aggregate, ORDER BY expressions must appear in the argument list")
			}
		}
		if hasVolatileCall(k.Expr) {
			return nil, b.errAt(at, ErrSyntax, "In a DISTINCT aggregate, ORDER BY expressions must appear in the argument list")
		}
	}
	if idx >= before && idx == len(a.aggs)-1 {
		// Bound just now without its order: drop it.
		a.aggs, a.aggCols = a.aggs[:idx], a.aggCols[:idx]
		maps.DeleteFunc(a.aggKeys, func(_ string, i int) bool { return i == idx })
	}
	entry, order := sortEntry(call.Arg, keys)
	entries := b.addAgg(planner.AggCall{Func: planner.AggList, Arg: entry, Distinct: true, Type: columnar.ListOf(entry.T)})
	if call.Func == planner.AggStringAgg {
		return &planner.Call{Fn: "sorted_string_agg", Args: []planner.Expr{entries, order, &planner.Const{Val: call.Param}}, T: call.Type}, nil
	}
	return &planner.Call{Fn: "sorted_list", Args: []planner.Expr{entries, order}, T: call.Type}, nil
}
