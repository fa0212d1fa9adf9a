package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// correlatedIn binds x [NOT] IN (q) for a correlated q whose correlation
// lies in its WHERE (sub from decorrelate). A hash mark join cannot do it:
// its NULL rules look at the whole build side, while IN must look only at
// S(o), the inner rows that satisfy the correlation for outer row o:
//
//	TRUE   some row of S(o) has value = x
//	NULL   otherwise, when S(o) is not empty and x or some value is NULL
//	FALSE  otherwise
//
// So the three facts are counted per distinct outer binding (perBinding),
// with x in the binding: n = count(matched), m = count(value = x),
// z = count(value IS NULL). x goes into the binding through coalesce and
// a NULL flag, so that equality keys match rows whose x is NULL too.
func (b *binder) correlatedIn(left planner.Expr, src callexpr.Expr, sub *boundSub, not bool, c ectx) (planner.Expr, error) {
	at := sub.at
	unsupported := func(why string) error {
		return b.errAt(at, ErrUnsupported, "correlated [NOT] IN subquery "+why+" is not supported")
	}
	xs, _, err := b.unify([]planner.Expr{left, &planner.ColRef{Col: sub.value}}, []callexpr.Expr{src, src}, c, true, "compare")
	if err != nil {
		return nil, err
	}
	x, v := xs[0], xs[1]
	zero, ok := zeroValue(x.Type())
	if !ok {
		return nil, unsupported("over " + x.Type().String())
	}
	boolT := columnar.TBool
	xNull := &planner.Call{Fn: "is_null", Args: []planner.Expr{x}, T: boolT}
	xKey := &planner.Call{Fn: "coalesce", Args: []planner.Expr{x, &planner.Const{Val: zero}}, T: x.Type()}
	cols, err := b.perBinding(sub, []planner.Expr{xKey, xNull}, func(mark planner.Expr, d []planner.Expr) []planner.AggCall {
		notNull := &planner.Call{Fn: "not", Args: []planner.Expr{d[1]}, T: boolT}
		eq := &planner.Call{Fn: "=", Args: []planner.Expr{v, d[0]}, T: boolT}
		return []planner.AggCall{
			{Func: planner.AggCount, Arg: mark, Type: columnar.TInt64},
			countIf(mark, and(mark, and(notNull, eq))),
			countIf(mark, and(mark, &planner.Call{Fn: "is_null", Args: []planner.Expr{v}, T: boolT})),
		}
	}, unsupported)
	if err != nil {
		return nil, err
	}
	n, m, z := cols[0], cols[1], cols[2]
	or := &planner.Call{Fn: "or", Args: []planner.Expr{xNull, positive(z)}, T: boolT}
	var value planner.Expr = &planner.Case{Whens: []planner.When{
		{Cond: positive(m), Then: &planner.Const{Val: columnar.BoolValue(true)}},
		{Cond: and(positive(n), or), Then: &planner.Const{Val: columnar.NullValue(boolT)}},
	}, Else: &planner.Const{Val: columnar.BoolValue(false)}, T: boolT}
	if not {
		value = &planner.Call{Fn: "not", Args: []planner.Expr{value}, T: boolT}
	}
	return value, nil
}

// perBinding computes aggregates over S(o), the inner rows of the
// correlated sub that satisfy its correlation for outer row o, without
// running sub per row:
//
//	D = DISTINCT (outer columns of the correlation, extra…)
//	G = D LEFT JOIN (q, matched=true) ON correlation GROUP BY D: aggs
//	b.input LEFT JOIN G ON those columns
//
// aggs receives the matched mark (NULL on D's rows that no inner row
// matched) and D's columns for extra (expressions over b.input). The
// returned columns hold each outer row's aggregates: read counts through
// positive. The join back matches NULLs as values (nullSafeKeys), so any
// correlation works, also one an outer NULL can satisfy (v = o.x OR v IS
// NULL); only where a column's type has no hashable NULL-safe key must
// every correlated conjunct be a comparison, which an outer NULL makes
// fail, as the plain join back then misses.
func (b *binder) perBinding(sub *boundSub, extra []planner.Expr, aggs func(mark planner.Expr, d []planner.Expr) []planner.AggCall, unsupported func(string) error) ([]planner.Column, error) {
	if b.postAgg {
		return nil, unsupported("in an aggregating query's SELECT, HAVING or ORDER BY")
	}
	outerSet := map[planner.ColID]bool{}
	for _, col := range b.input.Schema() {
		outerSet[col.ID] = true
	}
	outerCols := map[planner.ColID]planner.Column{}
	var order []planner.ColID
	strict := true
	for _, e := range sub.corr {
		call, ok := e.(*planner.Call)
		strict = strict && ok && strictComparisons[call.Fn]
		planner.WalkExpr(e, func(y planner.Expr) {
			if r, ok := y.(*planner.ColRef); ok && outerSet[r.Col.ID] {
				if _, seen := outerCols[r.Col.ID]; !seen {
					outerCols[r.Col.ID] = r.Col
					order = append(order, r.Col.ID)
				}
			}
		})
	}
	boolT := columnar.TBool

	// D: distinct outer bindings.
	dp := &planner.Project{Input: b.input}
	dcol := map[planner.ColID]planner.Column{}
	var outerKeys []planner.Expr // over the outer input, in D's column order
	for _, id := range order {
		col := outerCols[id]
		d := b.newCol(col.Name, "", col.Type)
		dp.Exprs, dp.Out = append(dp.Exprs, &planner.ColRef{Col: col}), append(dp.Out, d)
		dcol[id] = d
		outerKeys = append(outerKeys, &planner.ColRef{Col: col})
	}
	var dExtra []planner.Expr
	for _, e := range extra {
		d := b.newCol("binding", "", e.Type())
		dp.Exprs, dp.Out = append(dp.Exprs, e), append(dp.Out, d)
		dExtra = append(dExtra, &planner.ColRef{Col: d})
	}
	outerKeys = append(outerKeys, extra...)
	dnode := &planner.Distinct{Input: dp}

	// The inner rows, marked.
	mark := b.newCol("matched", "", boolT)
	ip := &planner.Project{Input: sub.right}
	for _, col := range sub.right.Schema() {
		ip.Exprs, ip.Out = append(ip.Exprs, &planner.ColRef{Col: col}), append(ip.Out, col)
	}
	ip.Exprs, ip.Out = append(ip.Exprs, &planner.Const{Val: columnar.BoolValue(true)}), append(ip.Out, mark)
	toD := func(e planner.Expr) planner.Expr {
		return mapColRefs(e, func(r *planner.ColRef) planner.Expr {
			if d, ok := dcol[r.Col.ID]; ok {
				return &planner.ColRef{Col: d}
			}
			return r
		})
	}
	var conds []planner.Expr
	for _, e := range sub.corr {
		conds = append(conds, toD(e))
	}
	j := &planner.Join{Left: dnode, Right: ip, Kind: planner.JoinLeft}
	j.EquiKeys, j.Cond = planner.SplitJoinCond(planner.JoinAnd(conds), dnode.Schema(), ip.Schema())

	// G: the aggregates per binding.
	g := &planner.Aggregate{Input: j, Aggs: aggs(&planner.ColRef{Col: mark}, dExtra)}
	var keys []planner.EquiKey
	for i, d := range dp.Out {
		gc := b.newCol(d.Name, "", d.Type)
		g.Groups = append(g.Groups, &planner.ColRef{Col: d})
		g.Out = append(g.Out, gc)
		k, ok := nullSafeKeys(outerKeys[i], &planner.ColRef{Col: gc})
		if !ok && !strict {
			return nil, unsupported("with a correlation that is not a comparison over " + gc.Type.String())
		}
		keys = append(keys, k...)
	}
	var out []planner.Column
	for _, a := range g.Aggs {
		col := b.newCol("agg", "", a.Type)
		g.Out = append(g.Out, col)
		out = append(out, col)
	}
	b.input = &planner.Join{Left: b.input, Right: g, Kind: planner.JoinLeft, EquiKeys: keys}
	return out, nil
}

// countIf counts the rows where cond holds (mark keeps unmatched rows out).
func countIf(mark, cond planner.Expr) planner.AggCall {
	return planner.AggCall{Func: planner.AggCount, Type: columnar.TInt64,
		Arg: &planner.Case{Whens: []planner.When{{Cond: cond, Then: mark}}, T: columnar.TBool}}
}

// positive is coalesce(col, 0) > 0, for a count that may be NULL.
func positive(col planner.Column) planner.Expr {
	zero := &planner.Const{Val: columnar.IntValue(columnar.TInt64, 0)}
	return &planner.Call{Fn: ">", Args: []planner.Expr{
		&planner.Call{Fn: "coalesce", Args: []planner.Expr{&planner.ColRef{Col: col}, zero}, T: columnar.TInt64}, zero}, T: columnar.TBool}
}
