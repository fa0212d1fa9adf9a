package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// ARRAY(query) is the query's one column as a list, in the query's ORDER
// BY order, and the empty list (not NULL) when the query has no rows, as
// DuckDB: ARRAY(SELECT i FROM t ORDER BY i DESC). The query is bound as a
// scalar subquery whose body gathers its own rows (arrayOfRows), so a
// correlated ARRAY goes through the same decorrelation as a correlated
// aggregate: the list is one value per outer row.
//
// The ORDER BY keys may be columns the query does not return (ORDER BY
// rowid, ORDER BY an expression): the gather reads the query's plan from
// before its hidden keys are dropped (orderedRoot) and collects
// struct_pack(keys…, value) entries that sorted_list orders, as an ordered
// list(x ORDER BY …) does (bind_agg_ordered.go). A LIMIT stays below the
// gather, so ARRAY(… ORDER BY x LIMIT 3) keeps the first three.

// arrayOfRows gathers the rows of bd, the bound body of ARRAY(…), into
// one list. A body of more than one column is left as it is, for the
// scalar subquery's column-count error.
func (b *binder) arrayOfRows(bd *Bound) *Bound {
	o := b.ordered
	if len(bd.Names) != 1 || o == nil {
		return bd
	}
	root := o.root
	if s, ok := root.(*planner.Sort); ok {
		root = s.Input // the gather orders the entries itself
	}
	v := &planner.ColRef{Col: root.Schema()[0]}
	listT := columnar.ListOf(v.Type())
	agg := &planner.Aggregate{Input: root}
	var list planner.Expr
	if len(o.keys) == 0 {
		agg.Aggs = []planner.AggCall{{Func: planner.AggList, Arg: v, Type: listT}}
		agg.Out = []planner.Column{b.newCol("array", "", listT)}
		list = &planner.ColRef{Col: agg.Out[0]}
	} else {
		entry, order := sortEntry(v, o.keys)
		entriesT := columnar.ListOf(entry.T)
		agg.Aggs = []planner.AggCall{{Func: planner.AggList, Arg: entry, Type: entriesT}}
		agg.Out = []planner.Column{b.newCol("array", "", entriesT)}
		list = &planner.Call{Fn: "sorted_list", Args: []planner.Expr{&planner.ColRef{Col: agg.Out[0]}, order}, T: listT}
	}
	empty := &planner.Const{Val: columnar.Value{Type: listT}}
	out := &planner.Project{Input: agg,
		Exprs: []planner.Expr{&planner.Call{Fn: "coalesce", Args: []planner.Expr{list, empty}, T: listT}},
		Out:   []planner.Column{b.newCol(bd.Names[0], "", listT)}}
	return &Bound{Root: out, Names: bd.Names}
}
