package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// x op ANY (q) and x op ALL (q) for op other than = ANY and <> ALL (which
// are IN and NOT IN). Over the values V of q, with NULLs as DuckDB has
// them: ANY is TRUE when x op v for some v, ALL is FALSE when not x op v
// for some v; otherwise the answer is NULL when x or some v is NULL and V
// is not empty, and FALSE (ANY) or TRUE (ALL) when it is. One v decides
// through an extreme of V: x < ANY is x < max(V), x < ALL is x < min(V)
// (and the mirror for >); = ALL is FALSE and <> ANY TRUE when min(V) or
// max(V) differs from x. So q is reduced to one row of n = count(*),
// nn = count(v), min(v), max(v) (per outer binding when q is correlated,
// perBinding), and the answer is a CASE over them:
//
//	ANY: CASE WHEN n = 0 THEN FALSE WHEN x IS NULL THEN NULL
//	          WHEN hit THEN TRUE WHEN nn < n THEN NULL ELSE FALSE END
//	ALL: CASE WHEN n = 0 THEN TRUE WHEN x IS NULL THEN NULL
//	          WHEN miss THEN FALSE WHEN nn < n THEN NULL ELSE TRUE END
//
// hit and miss are NULL when V holds only NULLs, so the CASE goes on to
// the NULL branch.

// bindQuantified binds e, a comparison with ANY or ALL over a subquery
// (or a list: bind_quantified_list.go).
func (b *binder) bindQuantified(e *ast.Quantified, c ectx) (planner.Expr, error) {
	if e.List != nil {
		return b.bindAST(quantifiedList(e, b.regexFull()), c)
	}
	if r, ok := rowQuantified(e); ok {
		e = r // (a, b) < ANY (SELECT x, y …): bind_row_quantified.go
	}
	defer b.preAgg(c)()
	if quantifiedIn(e) {
		in := &ast.InQuery{Span: e.Span, X: e.X, Query: e.Query, Not: e.Quant == "ALL"}
		if x, ok, err := b.rowInAST(in); ok {
			if err != nil {
				return nil, err
			}
			return b.bindAST(x, c) // bind_row_in.go
		}
		return b.bindSubqueryAST(in, c)
	}
	if x, ok, err := b.rowDiffersAST(e); ok {
		if err != nil {
			return nil, err
		}
		return b.bindAST(x, c) // bind_row_in.go
	}
	op := e.Op
	if op == "!=" {
		op = "<>"
	}
	if !strictComparisons[op] {
		return nil, b.errAt(b.q.tokAt(e.X.Extent().End), ErrUnsupported, fmt.Sprintf("operator %s with %s (subquery) is not supported", e.Op, e.Quant))
	}
	left, err := b.bindAST(e.X, c)
	if err != nil {
		return nil, err
	}
	sub, err := b.astSubquery(e.Query, c, true)
	if err != nil {
		return nil, err
	}
	at := b.q.tokAt(e.Query.Start)
	if sub.agg != nil {
		return b.aggCompare(op, left, astSrc(e.X), sub, c) // one value: x op ANY/ALL (v) is x op v
	}
	if len(sub.corr) == 0 && b.postAgg && b.agg != nil {
		// x is read above the Aggregate: map it to the grouped columns.
		if left, err = b.finalize(left, astSrc(e.X), c); err != nil {
			return nil, err
		}
	}
	src := astSrc(e.X)
	xs, _, err := b.unify([]planner.Expr{left, &planner.ColRef{Col: sub.value}}, []callexpr.Expr{src, src}, c, true, "compare")
	if err != nil {
		return nil, err
	}
	x, v := xs[0], xs[1]
	aggs := []planner.AggCall{
		{Func: planner.AggCountStar, Type: columnar.TInt64},
		{Func: planner.AggCount, Arg: v, Type: columnar.TInt64},
		{Func: planner.AggMin, Arg: v, Type: v.Type()},
		{Func: planner.AggMax, Arg: v, Type: v.Type()},
	}
	for i := 2; i < 4 && v.Type().IsNested(); i++ {
		// Lists, STRUCTs, MAPs: their extremes in their order (bind_agg.go).
		// (Not TIMETZ's: min/max go by the local time, the operators
		// compared here by the instant, which the plain kernels follow.)
		aggs[i], _ = argMinMaxOf(aggs[i].Func, v)
	}
	var cols []planner.Column
	if len(sub.corr) > 0 {
		unsupported := func(why string) error {
			return b.errAt(at, ErrUnsupported, fmt.Sprintf("correlated %s %s subquery %s is not supported", e.Op, e.Quant, why))
		}
		// Unmatched bindings carry a NULL mark: count(mark) is n, and v
		// is NULL on them, so count(v), min and max skip them.
		cols, err = b.perBinding(sub, nil, func(mark planner.Expr, _ []planner.Expr) []planner.AggCall {
			aggs[0] = planner.AggCall{Func: planner.AggCount, Arg: mark, Type: columnar.TInt64}
			return aggs
		}, unsupported)
		if err != nil {
			return nil, err
		}
	} else {
		g := &planner.Aggregate{Input: sub.right, Aggs: aggs}
		for _, a := range aggs {
			g.Out = append(g.Out, b.newCol("agg", "", a.Type))
		}
		cols = g.Out
		b.joinSub(planner.JoinSingle, &boundSub{right: g, value: g.Out[0]}, nil)
	}
	return quantifiedCase(op, e.Quant == "ALL", x, cols), nil
}

// quantifiedCase is the CASE above over x and the columns n, nn, min, max.
func quantifiedCase(op string, all bool, x planner.Expr, cols []planner.Column) planner.Expr {
	boolT := columnar.TBool
	ref := func(i int) planner.Expr { return &planner.ColRef{Col: cols[i]} }
	cmp := func(fn string, l, r planner.Expr) planner.Expr {
		return &planner.Call{Fn: fn, Args: []planner.Expr{l, r}, T: boolT}
	}
	mn, mx := ref(2), ref(3)
	var decide planner.Expr // hit for ANY, miss for ALL
	switch {
	case op == "=" || op == "<>":
		// = ALL misses and <> ANY hits on a value other than x.
		decide = &planner.Call{Fn: "or", Args: []planner.Expr{cmp("<>", mn, x), cmp("<>", mx, x)}, T: boolT}
	case !all && (op == "<" || op == "<="):
		decide = cmp(op, x, mx)
	case !all:
		decide = cmp(op, x, mn)
	case op == "<" || op == "<=":
		decide = &planner.Call{Fn: "not", Args: []planner.Expr{cmp(op, x, mn)}, T: boolT}
	default:
		decide = &planner.Call{Fn: "not", Args: []planner.Expr{cmp(op, x, mx)}, T: boolT}
	}
	val := func(v bool) planner.Expr { return &planner.Const{Val: columnar.BoolValue(v)} }
	null := &planner.Const{Val: columnar.NullValue(boolT)}
	count := func(i int) planner.Expr {
		return &planner.Call{Fn: "coalesce", Args: []planner.Expr{ref(i), &planner.Const{Val: columnar.IntValue(columnar.TInt64, 0)}}, T: columnar.TInt64}
	}
	return &planner.Case{Whens: []planner.When{
		{Cond: cmp("=", count(0), &planner.Const{Val: columnar.IntValue(columnar.TInt64, 0)}), Then: val(all)},
		{Cond: &planner.Call{Fn: "is_null", Args: []planner.Expr{x}, T: boolT}, Then: null},
		{Cond: decide, Then: val(!all)},
		{Cond: cmp("<", count(1), count(0)), Then: null},
	}, Else: val(all), T: boolT}
}
