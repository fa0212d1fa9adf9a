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
func splitDistinct(n Node) Node {
	n = mapChildren(n, splitDistinct)
	a, ok := n.(*Aggregate)
	if !ok || len(a.Aggs) == 0 {
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
