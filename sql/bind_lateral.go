package sql

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// A derived table may read the columns of the FROM elements before it:
// FROM t, LATERAL (SELECT … WHERE s.k = t.k) u, or without the keyword
// after a comma (DuckDB binds such a subquery laterally when it reads an
// earlier element), and t [LEFT|CROSS] JOIN LATERAL (…) u [ON …]. It is
// never run per row: as for correlated subqueries in expressions
// (bind_subquery.go), it is decorrelated into a join of t with the
// subquery's plan.
//
//	SELECT exprs FROM … WHERE corr AND rest
//	    t JOIN (FROM … WHERE rest) ON corr, then exprs above the join
//	SELECT aggregates FROM … WHERE k = t.k AND rest   (no GROUP BY)
//	    t LEFT JOIN (FROM … WHERE rest GROUP BY k) ON k = t.k, counts
//	    read through coalesce (an outer row with no inner rows still gets
//	    its one row of aggregates over nothing)
//
// exprs may read the outer columns: they are computed above the join.
// Under LEFT JOIN LATERAL, the rows of an outer row without inner rows
// are NULL, so exprs above the join are guarded by a match mark.

// lateralDerived joins acc and the derived table t, whose query may read
// acc's columns; kind is the join's (cross for a comma), cond its ON.
func (b *binder) lateralDerived(acc *fromItem, t *ast.Derived, kind planner.JoinKind, cond joinCond, unnamed *int) (*fromItem, error) {
	alias := derivedAlias(t, unnamed)
	saved := b.saveScope()
	b.scope, b.quals, b.hidden = acc.cols, acc.quals, acc.hidden
	bd, child, err := b.bindNested(b.subQuery(t.Query), true)
	b.restoreScope(saved)
	if err != nil {
		return nil, err
	}
	it, err := b.relation(bd, alias, aliasColumns(t.Alias), b.errAtRef(t))
	if err != nil {
		return nil, err
	}
	if len(child.outerRefs) == 0 {
		return b.joinItems(acc, it, kind, cond, false)
	}
	at := b.q.tokAt(t.Start)
	unsupported := func(why string) error {
		return b.errAt(at, ErrUnsupported, "LATERAL subquery "+why+" is not supported")
	}
	for _, q := range it.quals {
		for _, p := range acc.quals {
			if strings.EqualFold(p, q) {
				return nil, b.errAt(b.q.tokAt(t.Alias.Start), ErrUnsupported, fmt.Sprintf("duplicate table name %q in FROM; use an alias", q))
			}
		}
	}
	if kind != planner.JoinInner && kind != planner.JoinCross && kind != planner.JoinLeft {
		return nil, unsupported("in a RIGHT, FULL, SEMI or ANTI join")
	}
	if readsFurtherOut(acc.node, child.outerRefs) || len(cond.using) > 0 || cond.onSubquery {
		// The patterns below join with a plain ON only.
		return b.lateralFlatten(acc, it, bd, child, kind, cond, t)
	}
	var savedCond planner.Expr
	if child.where != nil {
		savedCond = child.where.Cond
	}
	res, err := b.lateralPatterns(acc, it, bd, child, kind, cond, t, unsupported)
	if err == nil || !errors.Is(err, ErrUnsupported) {
		return res, err
	}
	// A shape the patterns below do not cover: the general dependent join
	// (bind_lateral_flatten.go). The patterns only moved the WHERE's
	// correlated conjuncts out; put them back.
	if child.where != nil {
		child.where.Cond = savedCond
	}
	if flat, ferr := b.lateralFlatten(acc, it, bd, child, kind, cond, t); ferr == nil {
		return flat, nil
	}
	return nil, err
}

// lateralPatterns decorrelates the LATERAL shapes the file's comment
// lists.
func (b *binder) lateralPatterns(acc, it *fromItem, bd *Bound, child *binder, kind planner.JoinKind, cond joinCond, t *ast.Derived, unsupported func(string) error) (*fromItem, error) {
	// The select list, down through its projections to the first other node.
	out := bd.Root.Schema()
	exprs := make([]planner.Expr, len(out))
	for i, c := range out {
		exprs[i] = &planner.ColRef{Col: c}
	}
	// ORDER BY without LIMIT does not matter in FROM; with LIMIT it is a
	// limit per outer binding (limitPerKey).
	var limit *planner.Limit
	var sortKeys []planner.SortKey
	n := bd.Root
walk:
	for {
		switch x := n.(type) {
		case *planner.Project:
			for i := range exprs {
				exprs[i] = substitute(exprs[i], x)
			}
			for i := range sortKeys {
				sortKeys[i].Expr = substitute(sortKeys[i].Expr, x)
			}
			n = x.Input
		case *planner.Limit:
			if limit != nil {
				return nil, unsupported("with two LIMITs")
			}
			limit = x
			n = x.Input
		case *planner.Sort:
			if limit != nil && sortKeys == nil {
				sortKeys = append([]planner.SortKey(nil), x.Keys...)
			}
			n = x.Input
		default:
			break walk
		}
	}
	var corr []planner.Expr
	var right planner.Node
	var keys []planner.EquiKey
	switch x := n.(type) {
	case *planner.Aggregate:
		if len(x.Groups) > 0 || limit != nil || x.Input != planner.Node(child.where) || child.where == nil {
			return nil, unsupported("with GROUP BY, HAVING, LIMIT or an aggregate here")
		}
		corr = splitCorr(child.where, child.outerRefs)
		g, gkeys, err := b.groupByCorr(x, corr, child.outerRefs, unsupported)
		if err != nil {
			return nil, err
		}
		right, keys, corr, kind = g, gkeys, nil, planner.JoinLeft
		// COUNT over no rows is 0: an outer row without inner rows reads
		// NULL from the join.
		for i := range exprs {
			exprs[i] = countsCoalesced(x, exprs[i])
		}
	case *planner.Filter:
		if x != child.where {
			return nil, unsupported("with HAVING, QUALIFY or a filter here")
		}
		corr = splitCorr(x, child.outerRefs)
		right = x
		if limit != nil {
			var err error
			if right, err = b.limitPerKey(x, corr, child.outerRefs, limit, sortKeys, unsupported); err != nil {
				return nil, err
			}
		}
	case *planner.Unnest:
		if u, ok := unnestOfOuter(x, acc.node, child.outerRefs); ok {
			// (SELECT unnest(t.a) …) without FROM: t's rows unnested,
			// as FROM t, unnest(t.a).
			if limit != nil || kind == planner.JoinLeft {
				return nil, unsupported("that unnests outer columns with LIMIT or in a LEFT JOIN")
			}
			return b.lateralRows(acc, it, u, exprs, out, cond, t)
		}
		right = n
	default:
		if limit != nil {
			return nil, unsupported("with LIMIT and no WHERE correlation")
		}
		right = n
	}
	if planReads(right, child.outerRefs) {
		return nil, unsupported("that reads outer columns outside its SELECT list and WHERE")
	}
	if kind == planner.JoinCross {
		kind = planner.JoinInner
	}
	var mark planner.Column
	if kind == planner.JoinLeft && keys == nil {
		if cond.on != nil || len(cond.using) > 0 {
			return nil, unsupported("in a LEFT JOIN with a condition (write ON true)")
		}
		mark = b.newCol("matched", "", columnar.TBool)
		p := &planner.Project{Input: right}
		for _, c := range right.Schema() {
			p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: c}), append(p.Out, c)
		}
		p.Exprs, p.Out = append(p.Exprs, &planner.Const{Val: columnar.BoolValue(true)}), append(p.Out, mark)
		right = p
		for i, e := range exprs {
			exprs[i] = &planner.Case{Whens: []planner.When{{Cond: &planner.ColRef{Col: mark}, Then: e}}, T: e.Type()}
		}
	}
	j := &planner.Join{Left: acc.node, Right: right, Kind: kind, EquiKeys: keys}
	if len(corr) > 0 {
		more, rest := planner.SplitJoinCond(planner.JoinAnd(corr), acc.node.Schema(), right.Schema())
		j.EquiKeys, j.Cond = append(j.EquiKeys, more...), rest
	}
	return b.lateralRows(acc, it, j, exprs, out, cond, t)
}

// lateralRows puts the derived table's select list exprs (as columns out)
// beside acc's columns over rows, the joined (or unnested) rows of both,
// and ON above that.
func (b *binder) lateralRows(acc, it *fromItem, rows planner.Node, exprs []planner.Expr, out []planner.Column, cond joinCond, t *ast.Derived) (*fromItem, error) {
	p := &planner.Project{Input: rows}
	for _, c := range acc.node.Schema() {
		p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: c}), append(p.Out, c)
	}
	p.Exprs, p.Out = append(p.Exprs, exprs...), append(p.Out, out...)
	res := lateralItem(acc, it, p)
	if j, isJoin := rows.(*planner.Join); cond.on != nil && (!isJoin || j.Kind == planner.JoinInner) {
		// ON over both sides' columns: a filter above the projection.
		x, err := b.lateralOn(res, cond, t)
		if err != nil {
			return nil, err
		}
		res.node = &planner.Filter{Input: p, Cond: x}
	}
	return res, nil
}

// lateralItem is the FROM item of acc joined with the derived table it,
// its plan node.
func lateralItem(acc, it *fromItem, node planner.Node) *fromItem {
	return &fromItem{node: node, cols: append(append([]planner.Column(nil), acc.cols...), it.cols...),
		quals: append(append([]string(nil), acc.quals...), it.quals...), hidden: cloneHidden(acc.hidden)}
}

// lateralOn binds cond's ON over the columns of res, both sides'.
func (b *binder) lateralOn(res *fromItem, cond joinCond, t *ast.Derived) (planner.Expr, error) {
	saved := b.saveScope()
	b.scope, b.quals, b.hidden = res.cols, res.quals, res.hidden
	x, err := cond.on(ectx{sp: b.q.spanOf(t), clause: "ON"})
	b.restoreScope(saved)
	return x, err
}

// unnestOfOuter recognizes u, the plan of a derived table's unnest
// without FROM (an Unnest over the one row of no columns), whose lists
// read outer columns: it returns the Unnest over outer's rows instead,
// which passes them through.
func unnestOfOuter(u *planner.Unnest, outer planner.Node, refs map[planner.ColID]bool) (*planner.Unnest, bool) {
	v, ok := u.Input.(*planner.Values)
	if !ok || len(v.Rows) != 1 || len(v.Out) != 0 || len(u.Pass) != 0 {
		return nil, false
	}
	reads := false
	for _, e := range u.Exprs {
		reads = reads || readsAny(e, refs)
	}
	if !reads {
		return nil, false
	}
	return &planner.Unnest{Input: outer, Exprs: u.Exprs, Out: u.Out}, true
}

// splitCorr takes the conjuncts of w that read outer columns out of it and
// returns them.
func splitCorr(w *planner.Filter, outer map[planner.ColID]bool) []planner.Expr {
	var corr, keep []planner.Expr
	for _, e := range planner.SplitAnd(w.Cond) {
		if readsAny(e, outer) {
			corr = append(corr, e)
		} else {
			keep = append(keep, e)
		}
	}
	w.Cond = planner.JoinAnd(keep)
	if len(keep) == 0 {
		w.Cond = &planner.Const{Val: columnar.BoolValue(true)}
	}
	return corr
}

// groupByCorr regroups the ungrouped aggregate a by the inner sides of
// its correlation equalities corr: its output is the key columns and
// then a's aggregates (a's output columns), joined back by keys.
func (b *binder) groupByCorr(a *planner.Aggregate, corr []planner.Expr, outer map[planner.ColID]bool, unsupported func(string) error) (*planner.Aggregate, []planner.EquiKey, error) {
	inner := map[planner.ColID]bool{}
	for _, col := range a.Input.Schema() {
		inner[col.ID] = true
	}
	g := &planner.Aggregate{Input: a.Input, Aggs: a.Aggs}
	var keys []planner.EquiKey
	for _, e := range corr {
		call, ok := e.(*planner.Call)
		if !ok || call.Fn != "=" {
			return nil, nil, unsupported("computing an aggregate with a correlation other than equalities")
		}
		l, r := call.Args[0], call.Args[1]
		if readsAny(l, inner) {
			l, r = r, l
		}
		if !readsOnly(l, outer) || !readsOnly(r, inner) {
			return nil, nil, unsupported("computing an aggregate with this correlation")
		}
		col := b.newCol("key", "", r.Type())
		g.Groups = append(g.Groups, r)
		g.Out = append(g.Out, col)
		keys = append(keys, planner.EquiKey{L: l, R: &planner.ColRef{Col: col}})
	}
	g.Out = append(g.Out, a.Out[len(a.Groups):]...)
	return g, keys, nil
}

// derivedAlias is t's alias, or unnamed_subquery[N] as DuckDB names a
// derived table without one.
func derivedAlias(t *ast.Derived, unnamed *int) string {
	if alias := aliasName(t.Alias); alias != "" {
		return alias
	}
	*unnamed++
	if *unnamed > 1 {
		return "unnamed_subquery" + strconv.Itoa(*unnamed)
	}
	return "unnamed_subquery"
}

// countsCoalesced rewrites the subquery's value so that counts of an outer
// row the join did not match read 0.
func countsCoalesced(a *planner.Aggregate, valueExpr planner.Expr) planner.Expr {
	counts := map[planner.ColID]bool{}
	for i, ag := range a.Aggs {
		if ag.Func == planner.AggCount || ag.Func == planner.AggCountStar {
			counts[a.Out[len(a.Groups)+i].ID] = true
		}
	}
	return mapColRefs(valueExpr, func(r *planner.ColRef) planner.Expr {
		if counts[r.Col.ID] {
			return &planner.Call{Fn: "coalesce", Args: []planner.Expr{r, &planner.Const{Val: columnar.IntValue(r.Col.Type, 0)}}, T: r.Col.Type}
		}
		return r
	})
}
