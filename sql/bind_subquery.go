package sql

import (
	"errors"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// Subqueries written in the syntax tree bind as bind_subquery.go
// describes; the nested query is a subtree, bound by a child binder.

// astSubquery binds the nested query q of an expression; at is the token
// errors about it point at.
func (b *binder) astSubquery(q *ast.Query, c ectx, value bool) (*boundSub, error) {
	return b.bindSubquery(func() nestedQuery { return b.subQuery(q) }, b.q.tokAt(q.Start), c, value)
}

// bindSubqueryAST binds (q), EXISTS (q) and x [NOT] IN (q) inside an
// expression.
func (b *binder) bindSubqueryAST(e ast.Expr, c ectx) (planner.Expr, error) {
	defer b.preAgg(c)()
	switch e := e.(type) {
	case *ast.Subquery:
		at := b.q.tokAt(e.Query.Start)
		if e.Kind == ast.SubExists {
			at = b.q.tokAt(e.Start)
		}
		nest := func() nestedQuery {
			nq := b.subQuery(e.Query)
			nq.array = e.Kind == ast.SubArray // bind_array_subquery.go
			return nq
		}
		sub, err := b.bindSubquery(nest, at, c, e.Kind != ast.SubExists)
		if err != nil {
			return nil, err
		}
		if e.Kind == ast.SubExists {
			return b.existsMark(sub), nil
		}
		return b.scalarSub(sub), nil
	case *ast.InQuery:
		left, err := b.bindAST(e.X, c)
		if err != nil {
			return nil, err
		}
		sub, err := b.astSubquery(e.Query, c, true)
		if err != nil {
			return nil, err
		}
		return b.inMark(left, astSrc(e.X), sub, e.Not, c)
	}
	return nil, b.errAt(b.q.tokAt(e.Extent().Start), ErrUnsupported, "expression is not supported")
}

// preAgg makes a subquery inside an aggregate's argument or FILTER (c.inAgg)
// join below the Aggregate, onto the rows it reads, as DuckDB evaluates
// it: count(*) FILTER (WHERE x IN (SELECT …)). It returns the undo.
func (b *binder) preAgg(c ectx) func() {
	if !c.inAgg || !b.postAgg {
		return func() {}
	}
	b.postAgg = false
	return func() { b.postAgg = true }
}

// astSemiConjunct binds a WHERE conjunct that is [NOT] EXISTS (q) or
// x IN (q) as a semi or anti join onto b.input; done is false for other
// conjuncts. x IN (q) of a correlated aggregate q is a comparison instead
// (aggCompare), returned as cond for the WHERE to keep.
func (b *binder) astSemiConjunct(e ast.Expr, c ectx) (cond planner.Expr, done bool, err error) {
	anti := false
	if n, ok := e.(*ast.Unary); ok && n.Op == "NOT" {
		if s, ok := n.X.(*ast.Subquery); ok && s.Kind == ast.SubExists {
			e, anti = s, true
		}
	}
	switch x := e.(type) {
	case *ast.Subquery:
		if x.Kind != ast.SubExists {
			return nil, false, nil
		}
		sub, err := b.bindSubquery(func() nestedQuery { return b.subQuery(x.Query) }, b.q.tokAt(x.Start), c, false)
		if err != nil {
			return nil, false, err
		}
		kind := planner.JoinSemi
		if anti {
			kind = planner.JoinAnti
		}
		b.joinSub(kind, sub, nil)
		return nil, true, nil
	case *ast.InQuery:
		_, row := rowElems(x.X)
		if _, list := listSubquery(x); x.Not || row || list {
			return nil, false, nil // a row value binds as an expression (bind_row_in.go)
		}
		left, err := b.bindAST(x.X, c)
		if err != nil {
			return nil, false, err
		}
		sub, err := b.astSubquery(x.Query, c, true)
		if err != nil {
			return nil, false, err
		}
		if sub.agg != nil {
			cond, err := b.aggCompare("=", left, astSrc(x.X), sub, c)
			return cond, err == nil, err
		}
		key, err := b.inKey(left, astSrc(x.X), sub, c)
		if err != nil {
			return nil, false, err
		}
		b.joinSub(planner.JoinSemi, sub, []planner.EquiKey{key})
		return nil, true, nil
	}
	return nil, false, nil
}

// Subqueries in expressions are never run per row: each becomes a join of
// the query's FROM plan (b.input) with the subquery's plan.
//
//	WHERE … EXISTS (q) / x IN (q)      semi join (a top-level conjunct)
//	WHERE … NOT EXISTS (q)             anti join (a top-level conjunct)
//	x [NOT] IN (q) elsewhere           mark join, NULL-aware (uncorrelated)
//	EXISTS (q) elsewhere               mark join
//	(q) as a value                     single join (at most one row per outer row)
//
// A correlated subquery (one that reads the outer query's columns) is
// decorrelated: the conjuncts of its WHERE that read outer columns become
// the join condition. A correlated subquery computing an aggregate without
// GROUP BY is grouped by the inner sides of its correlation equalities and
// left-joined back (COUNT of no rows is 0, not NULL). GROUP BY/HAVING,
// ORDER BY … LIMIT and correlated [NOT] IN have files of their own
// (bind_subquery_group.go, _limit.go, _in.go). Every other shape
// (outer columns in the SELECT list, a derived table, a join's ON, a set
// operation, …) is flattened by the general dependent join
// (bind_subquery_flatten.go).

// bindSubquery binds the nested query nest returns, written at token at,
// as subquery does.
func (b *binder) bindSubquery(nest func() nestedQuery, at int, c ectx, value bool) (sub *boundSub, err error) {
	defer func() {
		if sub != nil {
			sub.at = at
		}
	}()
	if b.input == nil {
		return nil, b.errAt(at, ErrUnsupported, fmt.Sprintf("subqueries are not supported in %s", c.clause))
	}
	bd, child, err := b.bindNested(nest(), true)
	if err != nil {
		return nil, err
	}
	if value && len(bd.Names) != 1 {
		return nil, b.errAt(at, ErrType, fmt.Sprintf("subquery returns %d columns, expected 1", len(bd.Names)))
	}
	sub = &boundSub{right: bd.Root}
	if b.postAgg && len(child.outerRefs) > 0 {
		return b.postAggFlatten(bd, child, at, value)
	}
	if len(child.outerRefs) == 0 {
		if value {
			sub.value = bd.Root.Schema()[0]
		}
		return sub, nil
	}
	var saved planner.Expr
	if child.where != nil {
		saved = child.where.Cond
	}
	if readsFurtherOut(b.input, child.outerRefs) {
		// decorrelate's patterns take every outer column for one of
		// b.input's: only the general flattening tells them apart.
		return b.flattenCorrelated(bd, child, at, value)
	}
	sub, err = b.decorrelate(bd, child, at, value)
	if err == nil || !errors.Is(err, ErrUnsupported) {
		return sub, err
	}
	// A shape decorrelate's patterns do not cover: the general dependent
	// join (bind_subquery_flatten.go). decorrelate only moved the WHERE's
	// correlated conjuncts out; put them back.
	if child.where != nil {
		child.where.Cond = saved
	}
	if flat, ferr := b.flattenCorrelated(bd, child, at, value); ferr == nil {
		return flat, nil
	}
	return nil, err
}

// decorrelate pulls the correlated conjuncts out of the subquery's WHERE.
func (b *binder) decorrelate(bd *Bound, child *binder, at int, value bool) (*boundSub, error) {
	unsupported := func(why string) error {
		return b.errAt(at, ErrUnsupported, "correlated subquery "+why+" is not supported")
	}
	w := child.where
	if w == nil {
		return nil, unsupported("that reads outer columns outside WHERE")
	}
	var corr, keep []planner.Expr
	for _, e := range planner.SplitAnd(w.Cond) {
		// A volatile conjunct is evaluated per outer row too (DuckDB:
		// nextval in a correlated EXISTS advances once per pair), not
		// once over the subquery's rows.
		if readsAny(e, child.outerRefs) || hasVolatileCall(e) {
			corr = append(corr, e)
		} else {
			keep = append(keep, e)
		}
	}
	if len(keep) > 0 {
		w.Cond = planner.JoinAnd(keep)
	} else {
		w.Cond = &planner.Const{Val: columnar.BoolValue(true)}
	}
	if planReads(bd.Root, child.outerRefs) {
		return nil, unsupported("that reads outer columns outside WHERE")
	}
	// Walk down from the root to the WHERE filter.
	root := bd.Root
	out := root.Schema()
	var valueExpr planner.Expr
	if value {
		valueExpr = &planner.ColRef{Col: out[0]}
	}
	n := root
	var limit *planner.Limit
	var sortKeys []planner.SortKey // the ORDER BY under a LIMIT, brought down to w's columns
	var havings []*planner.Filter
	for n != planner.Node(w) {
		switch x := n.(type) {
		case *planner.Project:
			if valueExpr != nil {
				valueExpr = substitute(valueExpr, x)
			}
			for i := range sortKeys {
				sortKeys[i].Expr = substitute(sortKeys[i].Expr, x)
			}
			n = x.Input
		case *planner.Distinct:
			if limit != nil {
				return nil, unsupported("with DISTINCT and LIMIT")
			}
			n = x.Input
		case *planner.Sort:
			if limit != nil && sortKeys == nil {
				sortKeys = append([]planner.SortKey(nil), x.Keys...)
			}
			n = x.Input
		case *planner.Limit:
			if limit != nil {
				return nil, unsupported("with two LIMITs")
			}
			limit = x
			n = x.Input
		case *planner.Filter: // HAVING, above an Aggregate
			if limit != nil {
				return nil, unsupported("with HAVING and LIMIT")
			}
			havings = append(havings, x)
			n = x.Input
		case *planner.Aggregate:
			switch {
			case x.Input != planner.Node(w) || limit != nil:
				return nil, unsupported("with GROUP BY, HAVING or an aggregate here")
			case len(x.Groups) > 0:
				return b.decorrelateGrouped(x, havings, valueExpr, corr, child.outerRefs, unsupported)
			case !value || len(havings) > 0:
				return nil, unsupported("with an aggregate and HAVING or under EXISTS")
			}
			return b.decorrelateAgg(x, valueExpr, corr, child, unsupported)
		default:
			return nil, unsupported("with a set operation")
		}
	}
	if len(havings) > 0 {
		return nil, unsupported("with a filter above WHERE")
	}
	var below planner.Node = w
	if limit != nil {
		var err error
		if below, err = b.limitPerKey(w, corr, child.outerRefs, limit, sortKeys, unsupported); err != nil {
			return nil, err
		}
	}
	sub := &boundSub{right: below, corr: corr}
	if value {
		// Compute the value below the join, so that an unmatched outer row
		// sees NULL, not the expression over NULLs.
		p := &planner.Project{Input: below}
		sub.value = b.newCol("subquery", "", valueExpr.Type())
		p.Exprs, p.Out = append(p.Exprs, valueExpr), append(p.Out, sub.value)
		for _, col := range below.Schema() {
			p.Exprs = append(p.Exprs, &planner.ColRef{Col: col})
			p.Out = append(p.Out, col)
		}
		sub.right = p
	}
	return sub, nil
}

// decorrelateAgg groups a correlated aggregate by the inner sides of its
// correlation equalities.
func (b *binder) decorrelateAgg(a *planner.Aggregate, valueExpr planner.Expr, corr []planner.Expr, child *binder, unsupported func(string) error) (*boundSub, error) {
	for _, e := range corr {
		if call, ok := e.(*planner.Call); !ok || call.Fn != "=" {
			return b.decorrelateAggGeneral(a, valueExpr, corr, child, unsupported)
		}
	}
	g, keys, err := b.groupByCorr(a, corr, child.outerRefs, unsupported) // bind_lateral.go
	if err != nil {
		return nil, err
	}
	// COUNT over no rows is 0: an unmatched outer row gets NULL from the
	// join, so counts are read through COALESCE.
	return &boundSub{right: g, agg: &aggSub{value: countsCoalesced(a, valueExpr), keys: keys}}, nil
}

// joinSub joins a bound subquery onto b.input.
func (b *binder) joinSub(kind planner.JoinKind, sub *boundSub, keys []planner.EquiKey) *planner.Join {
	if b.postAgg {
		// Above the Aggregate: Left is set when it is built. A correlated
		// subquery's conditions read the group keys (postAggFlatten).
		j := &planner.Join{Right: sub.right, Kind: kind, EquiKeys: keys}
		if len(sub.corr) > 0 {
			more, rest := planner.SplitJoinCond(planner.JoinAnd(sub.corr), b.agg.groupCols, sub.right.Schema())
			j.EquiKeys, j.Cond = append(j.EquiKeys, more...), rest
		}
		b.post = append(b.post, j)
		return j
	}
	j := &planner.Join{Left: b.input, Right: sub.right, Kind: kind}
	if sub.agg != nil {
		keys = append(keys, sub.agg.keys...)
	}
	var cond planner.Expr
	if len(sub.corr) > 0 {
		cond = planner.JoinAnd(sub.corr)
	}
	more, rest := planner.SplitJoinCond(cond, b.input.Schema(), sub.right.Schema())
	j.EquiKeys = append(keys, more...)
	j.Cond = rest
	b.input = j
	return j
}

// inKey is the equality x = subquery value, both sides of one type.
func (b *binder) inKey(left planner.Expr, src callexpr.Expr, sub *boundSub, c ectx) (planner.EquiKey, error) {
	xs, _, err := b.unify([]planner.Expr{left, &planner.ColRef{Col: sub.value}}, []callexpr.Expr{src, src}, c, true, "compare")
	if err != nil {
		return planner.EquiKey{}, err
	}
	return planner.EquiKey{L: xs[0], R: xs[1]}, nil
}

// scalarSub joins a bound scalar subquery and returns its value.
func (b *binder) scalarSub(sub *boundSub) planner.Expr {
	if sub.agg != nil {
		b.joinSub(planner.JoinLeft, sub, nil)
		return sub.agg.value
	}
	b.joinSub(planner.JoinSingle, sub, nil)
	return &planner.ColRef{Col: sub.value}
}

// existsMark joins a bound EXISTS subquery as a mark join.
func (b *binder) existsMark(sub *boundSub) planner.Expr {
	j := b.joinSub(planner.JoinMark, sub, nil)
	j.Mark = b.newCol("exists", "", columnar.TBool)
	return &planner.ColRef{Col: j.Mark}
}

// inMark binds left [NOT] IN a bound subquery; leftSrc is left's syntax.
func (b *binder) inMark(left planner.Expr, leftSrc callexpr.Expr, sub *boundSub, not bool, c ectx) (planner.Expr, error) {
	var err error
	if sub.agg != nil {
		x, err := b.aggCompare("=", left, leftSrc, sub, c)
		if err != nil || !not {
			return x, err
		}
		return &planner.Call{Fn: "not", Args: []planner.Expr{x}, T: columnar.TBool}, nil
	}
	if len(sub.corr) > 0 {
		return b.correlatedIn(left, leftSrc, sub, not, c)
	}
	if b.postAgg && b.agg != nil {
		// The key is read above the Aggregate: map it to the grouped columns.
		if left, err = b.finalize(left, leftSrc, c); err != nil {
			return nil, err
		}
	}
	key, err := b.inKey(left, leftSrc, sub, c)
	if err != nil {
		return nil, err
	}
	j := b.joinSub(planner.JoinMark, sub, []planner.EquiKey{key})
	j.NullAware = true
	j.Mark = b.newCol("in", "", columnar.TBool)
	var x planner.Expr = &planner.ColRef{Col: j.Mark}
	if not {
		x = &planner.Call{Fn: "not", Args: []planner.Expr{x}, T: columnar.TBool}
	}
	return x, nil
}

// lookupOuter resolves a name in the enclosing query's scope, recording
// the correlation.
//
// A derived table, CTE or set-operation leaf has no outer query of its
// own; inside a subquery it reads that subquery's outer query (DuckDB:
// SELECT (SELECT x FROM (SELECT o.a AS x) s) FROM o), and the correlation
// is the subquery's, which flattenCorrelated takes apart.
func (b *binder) lookupOuter(qual, name string) (planner.Column, bool) {
	if b.outer == nil {
		if b.enclosing != nil {
			col, ok := b.enclosing.lookupOuter(qual, name)
			b.readsEnclosing = b.readsEnclosing || ok
			return col, ok
		}
		return planner.Column{}, false
	}
	var found []planner.Column
	for _, col := range b.outer.scope {
		if qual == "" && b.outer.hidden[col.ID]&hideBare != 0 {
			continue
		}
		if equalFold(col.Name, name) && (qual == "" || equalFold(col.Table, qual)) {
			found = append(found, col)
		}
	}
	if len(found) > 1 {
		return planner.Column{}, false
	}
	if len(found) == 0 {
		// A query further out (a subquery in a subquery reading the
		// outermost query): the reference is this subquery's correlation
		// too, as it is the enclosing one's; each level flattens its own
		// (flattenCorrelated leaves columns of queries further out to
		// them).
		col, ok := b.outer.lookupOuter(qual, name)
		if ok {
			b.outerRefs[col.ID] = true
		}
		return col, ok
	}
	b.outerRefs[found[0].ID] = true
	return found[0], true
}

// aggCompare binds x op (q) for a correlated aggregate subquery q
// (sub.agg): an aggregate without GROUP BY yields exactly one row per
// outer row, so x IN (q), x op ANY (q) and x op ALL (q) are all x op v,
// v its value, with x op v's NULLs (x NOT IN (q) is NOT (x = v)). v is
// the scalar subquery's, joined as (q) is.
func (b *binder) aggCompare(op string, left planner.Expr, src callexpr.Expr, sub *boundSub, c ectx) (planner.Expr, error) {
	v := b.scalarSub(sub)
	xs, _, err := b.unify([]planner.Expr{left, v}, []callexpr.Expr{src, src}, c, true, "compare")
	if err != nil {
		return nil, err
	}
	return &planner.Call{Fn: op, Args: xs, T: columnar.TBool}, nil
}
