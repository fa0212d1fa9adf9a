package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql/internal/callexpr"

	"github.com/b2sql/b2sql/planner"
)

// An ordered aggregate, agg(args ORDER BY keys), is bound with its keys
// (bindOrderedAgg). Only string_agg's
// result depends on the order of its input; DuckDB accepts ORDER BY in
// every other aggregate and ignores it, and so does b2sql (the keys are
// still bound, so a misspelt column is reported).
//
// string_agg gets its order from its input: the Aggregate reads its rows
// through a stable Sort on the keys (orderAggInput), so each group's
// values arrive, and are joined, in key order. Every ordered string_agg
// of one query must therefore share one ORDER BY.

// orderedAgg is a bound ordered string_agg: its index in aggState.aggs,
// its keys, their text (to compare orderings) and its position.
type orderedAgg struct {
	idx  int
	keys []planner.SortKey
	text string
	at   int
}

// bindOrderedAgg binds agg(args ORDER BY order), where name is the
// aggregate the user wrote.
func (b *binder) bindOrderedAgg(name string, exprs callexpr.SelectExprs, distinct bool, orderBy []winOrder, c ectx) (planner.Expr, error) {
	at := b.q.findName("", name, c.sp)
	if !isAggName(name) {
		return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("ORDER BY inside a call is only valid for aggregate functions, not %s", name))
	}
	if c.inAgg || !c.aggOK {
		// Let the plain binding report nesting or a misplaced aggregate.
		return b.bindFunc(&callexpr.FuncExpr{Name: callexpr.NewColIdent(name), Exprs: exprs, Distinct: distinct}, c)
	}
	ac := c
	ac.inAgg, ac.aggOK = true, false
	var keys []planner.SortKey
	var text []string
	for _, o := range orderBy {
		k, err := b.bindExpr(o.expr, ac)
		if err != nil {
			return nil, err
		}
		desc := o.desc
		keys = append(keys, planner.SortKey{Expr: k, Desc: desc})
		text = append(text, fmt.Sprintf("%s %v", k, desc))
	}
	a := b.agg
	before := len(a.aggs)
	x, err := b.bindFunc(&callexpr.FuncExpr{Name: callexpr.NewColIdent(name), Exprs: exprs, Distinct: distinct}, c)
	if err != nil || holisticAggs[name] != planner.AggStringAgg && holisticAggs[name] != planner.AggList {
		return x, err // the order does not change this aggregate's result
	}
	ref, ok := x.(*planner.ColRef)
	idx := -1
	for i, col := range a.aggCols {
		if ok && col.ID == ref.Col.ID {
			idx = i
		}
	}
	if idx < 0 {
		return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("ORDER BY inside %s here is not supported", name))
	}
	if a.aggs[idx].Distinct {
		return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("%s(DISTINCT … ORDER BY …) is not supported; order the distinct values in a subquery", name))
	}
	order := strings.Join(text, ", ")
	for _, o := range a.ordered {
		if o.idx == idx && o.text == order {
			return x, nil // the same ordered call again
		}
	}
	if idx < before {
		// An unordered call of the same aggregate exists: this one is
		// its own aggregate.
		call := a.aggs[idx]
		col := b.newCol(fmt.Sprintf("%s ORDER BY %s", a.aggCols[idx].Name, order), "", call.Type)
		idx = len(a.aggs)
		a.aggs = append(a.aggs, call)
		a.aggCols = append(a.aggCols, col)
		x = &planner.ColRef{Col: col}
	} else {
		// Newly bound: an unordered call bound later must not share it.
		for k, i := range a.aggKeys {
			if i == idx {
				delete(a.aggKeys, k)
				a.aggKeys[k+" ORDER BY "+order] = idx
			}
		}
	}
	a.ordered = append(a.ordered, orderedAgg{idx: idx, keys: keys, text: order, at: at})
	return x, nil
}

// isAggName reports whether name is an aggregate function.
func isAggName(name string) bool {
	_, plain := aggFuncs[name]
	return plain || aggRewrites[name] || holisticAggs[name] != 0 || argMinMaxAggs[name] != 0
}

// orderAggInput returns the Aggregate's input, through a Sort on the keys
// of the query's ordered string_aggs (nil when there are none), or an
// error at the first one whose ORDER BY differs from the others'.
func (b *binder) orderAggInput(input planner.Node) (planner.Node, error) {
	a := b.agg
	if len(a.ordered) == 0 {
		return input, nil
	}
	first := a.ordered[0]
	for _, o := range a.ordered[1:] {
		if o.text != first.text {
			return nil, b.errAt(o.at, ErrUnsupported, "ordered aggregates (string_agg, array_agg, list) with different ORDER BY in one query are not supported")
		}
	}
	return &planner.Sort{Input: input, Keys: first.keys}, nil
}
