package planner

// splitDistinct rewrites an aggregate whose aggregates are all DISTINCT over
// one argument into two aggregates: the inner groups by the keys plus the
// argument (deduplicating it, in parallel like any GROUP BY), the outer
// aggregates the deduplicated values plainly:
//
//	SELECT g, count(DISTINCT x) FROM t GROUP BY g
//	  ≡ SELECT g, count(x) FROM (SELECT g, x FROM t GROUP BY g, x) GROUP BY g
//
// NULL x forms one inner group that the outer count/sum/avg/min/max ignore,
// as they ignore NULL, so the answer is unchanged.
//
// A GROUP BY whose input is estimated below splitDistinctMinRows keeps its
// one aggregate: the split's parallel plan deals every (g, x) pair to a
// partition and numbers the groups once per partition, which on TPC-H
// Q16's 119,541 join rows cost 61 ms of CPU where the single aggregate
// over the same (still parallel) scans costs 47, in about the same
// elapsed time at 2 threads. A grand total (no GROUP BY) always splits:
// its inner GROUP BY x is what makes it parallel and lets x group on
// dictionary codes.
func splitDistinct(n Node) Node {
	n = mapChildren(n, splitDistinct)
	a, ok := n.(*Aggregate)
	if !ok || len(a.Aggs) == 0 {
		return n
	}
	if e, known := estimate(a.Input); known && len(a.Groups) > 0 && e.rows < splitDistinctMinRows {
		return n
	}
	arg := a.Aggs[0].Arg
	for _, agg := range a.Aggs {
		if !agg.Distinct || agg.Arg == nil || agg.Arg.String() != arg.String() || agg.Func == AggCountStar || agg.Filter != nil {
			return n
		}
	}
	next := maxColID(n) + 1
	fresh := func(name string, e Expr) Column {
		c := Column{ID: next, Name: name, Type: e.Type()}
		next++
		return c
	}
	inner := &Aggregate{Input: a.Input}
	outerGroups := make([]Expr, len(a.Groups))
	for i, g := range a.Groups {
		c := fresh(a.Out[i].Name, g)
		inner.Groups = append(inner.Groups, g)
		inner.Out = append(inner.Out, c)
		outerGroups[i] = &ColRef{Col: c}
	}
	xc := fresh("distinct "+arg.String(), arg)
	inner.Groups = append(inner.Groups, arg)
	inner.Out = append(inner.Out, xc)
	outer := &Aggregate{Input: inner, Groups: outerGroups, Out: a.Out}
	for _, agg := range a.Aggs {
		agg.Distinct = false
		agg.Arg = &ColRef{Col: xc}
		outer.Aggs = append(outer.Aggs, agg)
	}
	return outer
}

// splitDistinctMinRows is the estimated input below which a grouped
// DISTINCT aggregate is not split (splitDistinct). The estimates are
// rough (Q16's join is estimated at 32,000 rows for 119,541), so the
// bound leaves room: a single aggregate numbers about 4M rows a second,
// and below the bound the parallel plan would save at most a few tens
// of milliseconds of elapsed time, at more CPU.
const splitDistinctMinRows = 100_000

// maxColID returns the largest column ID produced or read in the plan.
func maxColID(n Node) ColID {
	m := ColID(0)
	for _, c := range n.Schema() {
		m = max(m, c.ID)
	}
	for _, k := range n.Children() {
		m = max(m, maxColID(k))
	}
	return m
}
