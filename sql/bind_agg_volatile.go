package sql

import "github.com/b2sql/b2sql/planner"

// onceVolatileArgs computes, in a projection below the aggregate, each
// aggregate argument that calls a volatile function (nextval, random)
// and that several aggregate calls share: the binder writes one user
// call as several (AVG of an integer is an exact sum and a count, both
// of the same argument), and each would evaluate it again (AVG(nextval('s'))
// advanced the sequence twice a row: DuckDB's test_avg.test:33). Calls
// the user wrote twice are different expressions and stay two.
func (b *binder) onceVolatileArgs(input planner.Node, aggs []planner.AggCall) (planner.Node, []planner.AggCall) {
	uses := map[planner.Expr]int{}
	for _, a := range aggs {
		if a.Arg != nil && hasVolatileCall(a.Arg) {
			uses[a.Arg]++
		}
	}
	var p *planner.Project
	cols := map[planner.Expr]planner.Column{}
	out := aggs
	for i, a := range aggs {
		if uses[a.Arg] < 2 {
			continue
		}
		if p == nil {
			p = &planner.Project{Input: input}
			for _, c := range input.Schema() {
				p.Exprs, p.Out = append(p.Exprs, &planner.ColRef{Col: c}), append(p.Out, c)
			}
			out = append([]planner.AggCall(nil), aggs...)
		}
		col, ok := cols[a.Arg]
		if !ok {
			col = b.newCol("arg", "", a.Arg.Type())
			cols[a.Arg] = col
			p.Exprs, p.Out = append(p.Exprs, a.Arg), append(p.Out, col)
		}
		out[i].Arg = &planner.ColRef{Col: col}
	}
	if p == nil {
		return input, aggs
	}
	return p, out
}

// ownAggs keeps the aggregate calls an AVG is bound to from being shared
// with calls the user wrote, when arg is volatile: DuckDB shares calls
// written alike (two sum(nextval('s')), two AVG(nextval('s'))), but
// AVG(nextval('s')) beside sum(nextval('s')) are two evaluations of
// nextval. The returned function ends it.
func (b *binder) ownAggs(arg planner.Expr) func() {
	if !hasVolatileCall(arg) {
		return func() {}
	}
	old := b.aggTag
	b.aggTag = " in avg"
	return func() { b.aggTag = old }
}

// hasVolatileCall reports whether x calls a volatile function.
func hasVolatileCall(x planner.Expr) bool {
	found := false
	planner.WalkExpr(x, func(y planner.Expr) {
		if c, ok := y.(*planner.Call); ok && planner.Volatile(c.Fn) {
			found = true
		}
	})
	return found
}
