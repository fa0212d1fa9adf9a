package sql

import (
	"fmt"
	"maps"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// An ordered aggregate, agg(args ORDER BY keys), is bound with its keys
// (bindOrderedAgg). string_agg's and list's result depend on the order
// of their input, and first, last and any_value pick by it (sortedPick);
// quantiles (ORDER BY x DESC), mode and arg_min/arg_max (ties) are
// rewritten into forms that keep the order before binding
// (bind_agg_order_rewrite.go). DuckDB accepts ORDER BY in every other
// aggregate and ignores it, and so does b2sql (the keys are still bound,
// so a misspelt column is reported).
//
// string_agg gets its order from its input: the Aggregate reads its rows
// through a stable Sort on the keys (orderAggInput), so each group's
// values arrive, and are joined, in key order. That serves the first
// ORDER BY of a query; an ordered string_agg or list with another ORDER
// BY collects list(struct_pack(keys…, value)) instead and sorts each
// group's entries when it finishes (sortedInGroup;
// executor/call_list_sorted.go), as DuckDB's sorted aggregates do.

// bindOrderedAgg binds agg(args ORDER BY order), where name is the
// aggregate the user wrote and call its call without the order.
func (b *binder) bindOrderedAgg(name string, call *callexpr.FuncExpr, orderBy []winOrder, c ectx) (planner.Expr, error) {
	exprs, distinct := call.Exprs, call.Distinct
	at := b.q.tok(call.At)
	if !isAggName(name) {
		return nil, b.errAt(at, ErrSyntax, fmt.Sprintf("ORDER BY inside a call is only valid for aggregate functions, not %s", name))
	}
	if c.inAgg || !c.aggOK {
		// Let the plain binding report nesting or a misplaced aggregate.
		return b.bindFunc(&callexpr.FuncExpr{At: call.At, Name: callexpr.NewColIdent(name), Exprs: exprs, Distinct: distinct}, c)
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
		keys = append(keys, planner.SortKey{Expr: k, Desc: o.desc, NullsFirst: o.nullsFirst})
		text = append(text, fmt.Sprintf("%s %v %v", k, o.desc, o.nullsFirst))
	}
	if _, ok := orderedPicks[name]; ok && len(exprs) == 1 {
		arg, ok := exprs[0].(*callexpr.AliasedExpr)
		if !ok {
			return nil, b.arity(at, name, "1")
		}
		x, err := b.bindExpr(arg.Expr, ac)
		if err != nil {
			return nil, err
		}
		return b.sortedPick(name, x, keys), nil
	}
	if name == "lttb" {
		args, star, err := b.callArgs(call, at)
		if err != nil {
			return nil, err
		}
		point, n, err := b.lttbPoint(name, call, args, star, at, c) // bind_agg_lttb.go
		if err != nil {
			return nil, err
		}
		entries, order := b.sortedEntries(point, keys)
		return lttbSample(&planner.Call{Fn: "sorted_list", Args: []planner.Expr{entries, order}, T: columnar.ListOf(point.T)}, n), nil
	}
	if q := holisticAggs[name]; q == planner.AggQuantileCont || q == planner.AggQuantileDisc {
		if err := b.orderedFractions(call, at, c); err != nil {
			return nil, err
		}
	}
	a := b.agg
	before := len(a.aggs)
	x, err := b.bindFunc(&callexpr.FuncExpr{At: call.At, Name: callexpr.NewColIdent(name), Exprs: exprs, Distinct: distinct}, c)
	topN := err == nil && isTopNRef(a, x)
	if err != nil || holisticAggs[name] != planner.AggStringAgg && holisticAggs[name] != planner.AggList && !topN {
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
	if topN && len(a.ordered) > 0 && a.ordered[0].text != strings.Join(text, ", ") {
		// max(x, n ORDER BY k) and the like read their input in the
		// order, which decides among rows tied on the val only: under
		// another ordered aggregate's order they keep that one.
		return x, nil
	}
	if a.aggs[idx].Distinct {
		return b.distinctInOrder(idx, before, keys, at)
	}
	order := strings.Join(text, ", ")
	for _, o := range a.ordered {
		if o.idx == idx && o.text == order {
			return x, nil // the same ordered call again
		}
	}
	if len(a.ordered) > 0 && a.ordered[0].text != order {
		return b.sortedInGroup(idx, before, keys), nil
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

// sortedInGroup binds ordered aggregate a.aggs[idx] (string_agg or list,
// bound at or after index before) whose ORDER BY keys differ from the
// first ordered aggregate's: it collects the group's entries
// list(struct_pack(keys…, value)) and sorts them when the group is done.
func (b *binder) sortedInGroup(idx, before int, keys []planner.SortKey) planner.Expr {
	a := b.agg
	call := a.aggs[idx]
	if idx >= before && idx == len(a.aggs)-1 {
		// Bound just now without its order: drop it.
		a.aggs, a.aggCols = a.aggs[:idx], a.aggCols[:idx]
		for k, i := range a.aggKeys {
			if i == idx {
				delete(a.aggKeys, k)
			}
		}
	}
	entries, order := b.sortedEntries(call.Arg, keys)
	if call.Func == planner.AggStringAgg {
		return &planner.Call{Fn: "sorted_string_agg", Args: []planner.Expr{entries, order, &planner.Const{Val: call.Param}}, T: call.Type}
	}
	return &planner.Call{Fn: "sorted_list", Args: []planner.Expr{entries, order}, T: call.Type}
}

// sortedEntries adds the aggregate list(struct_pack(keys…, x)) and
// returns it with the constant order flags sorted_list and
// sorted_string_agg take (executor/call_list_sorted.go).
func (b *binder) sortedEntries(x planner.Expr, keys []planner.SortKey) (planner.Expr, planner.Expr) {
	entry, order := sortEntry(x, keys)
	return b.addAgg(planner.AggCall{Func: planner.AggList, Arg: entry, Type: columnar.ListOf(entry.T)}), order
}

// sortEntry returns struct_pack(keys…, x), one entry of a list that
// sorted_list orders by its keys, and the constant order flags sorted_list
// takes; constant keys order nothing and are left out.
func sortEntry(x planner.Expr, keys []planner.SortKey) (*planner.Call, *planner.Const) {
	var args []planner.Expr
	var fields []columnar.Field
	order := columnar.Value{Type: columnar.ListOf(columnar.TBool)}
	for _, k := range keys {
		if _, constant := planner.FoldExpr(k.Expr).(*planner.Const); constant {
			continue // orders nothing
		}
		args = append(args, k.Expr)
		fields = append(fields, columnar.Field{Name: fmt.Sprintf("k%d", len(fields)+1), Type: k.Expr.Type()})
		order.Elems = append(order.Elems, columnar.BoolValue(k.Desc), columnar.BoolValue(k.NullsFirst))
	}
	args = append(args, x)
	fields = append(fields, columnar.Field{Name: "v", Type: x.Type()})
	return &planner.Call{Fn: "struct_pack", Args: args, T: columnar.StructOf(fields...)}, &planner.Const{Val: order}
}

// orderedPicks are the aggregates whose ORDER BY picks the value: first
// and last take the first or last row's value in key order (NULL
// included), any_value the first non-NULL one.
var orderedPicks = map[string]string{"first": "list_first", "arbitrary": "list_first", "last": "list_last", "any_value": "list_any_value"}

// sortedPick binds first, last or any_value(x ORDER BY keys): the group's
// values in key order (stable: rows tied on the keys keep their input
// order) and the one the aggregate picks.
func (b *binder) sortedPick(name string, x planner.Expr, keys []planner.SortKey) planner.Expr {
	if x.Type().ID == columnar.Null {
		x = &planner.Const{Val: columnar.NullValue(columnar.TInt32)}
	}
	entries, order := b.sortedEntries(x, keys)
	sorted := &planner.Call{Fn: "sorted_list", Args: []planner.Expr{entries, order}, T: columnar.ListOf(x.Type())}
	return &planner.Call{Fn: orderedPicks[name], Args: []planner.Expr{sorted}, T: x.Type()}
}

// isTopNRef reports whether x is the column of an "n" extreme, max(x, n)
// or arg_max(arg, val, n) and the like, or of approx_top_k
// (bind_agg_topn.go), whose ORDER BY orders its input as string_agg's
// does: it decides their ties.
func isTopNRef(a *aggState, x planner.Expr) bool {
	ref, ok := x.(*planner.ColRef)
	if !ok {
		return false
	}
	for i, col := range a.aggCols {
		if col.ID == ref.Col.ID {
			f := a.aggs[i].Func
			return f == planner.AggArgMaxN || f == planner.AggArgMinN || f == planner.AggApproxTopK
		}
	}
	return false
}

// isAggName reports whether name is an aggregate function.
func isAggName(name string) bool {
	_, plain := aggFuncs[name]
	return plain || aggRewrites[name] || holisticAggs[name] != 0 || argMinMaxAggs[name] != 0 || planner.PairAggNames[name] != 0 ||
		name == "histogram" || name == "histogram_exact" || name == "decimal_average" || name == "count_star" || name == "lttb" || name == "approx_top_k" ||
		name == "arg_min_nulls_last" || name == "arg_max_nulls_last" // bind_agg_order_rewrite.go
}

// orderAggInput returns the Aggregate's input, through a Sort on the keys
// of the query's first ordered string_agg or list (the others with that
// ORDER BY share it; those with another sort per group, sortedInGroup).
func (b *binder) orderAggInput(input planner.Node) (planner.Node, error) {
	a := b.agg
	if len(a.ordered) == 0 {
		return input, nil
	}
	return &planner.Sort{Input: input, Keys: a.ordered[0].keys}, nil
}

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

// orderedFractions refuses a negative fraction in a quantile with an ORDER
// BY (percentile_disc(f) WITHIN GROUP (ORDER BY x) among them), as DuckDB:
// only a plain quantile is descending for it (bind_agg_quantile.go).
func (b *binder) orderedFractions(call *callexpr.FuncExpr, at int, c ectx) error {
	args, _, err := b.callArgs(call, at)
	if err != nil || len(args) != 2 {
		return err
	}
	ac := c
	ac.inAgg, ac.aggOK = true, false
	y, err := b.bindExpr(args[1], ac)
	if err != nil {
		return err
	}
	k, ok := planner.FoldExpr(y).(*planner.Const)
	if !ok {
		return nil // the quantile's own binding says what is wrong
	}
	fracs := []columnar.Value{k.Val}
	if k.Val.Type.ID == columnar.List {
		fracs = k.Val.Elems
	}
	for _, v := range fracs {
		if !v.Null && v.Type.IsNumeric() && v.AsFloat() < 0 {
			return b.typeErr(args[1], c, "PERCENTILEs can only take parameters in the range [0, 1]")
		}
	}
	return nil
}
