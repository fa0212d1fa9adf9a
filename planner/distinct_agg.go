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
		if !agg.Distinct || agg.Arg == nil || agg.Arg.String() != arg.String() || agg.Func == AggCountStar {
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

// groupDistinct runs SELECT DISTINCT over a scan pipeline as a GROUP BY of
// every column, with no aggregate:
//
//	SELECT DISTINCT a, b FROM t WHERE p  ≡  SELECT a, b FROM t WHERE p GROUP BY a, b
//
// DISTINCT and GROUP BY put rows in one group under the same key equality
// (NULLs equal), so the rows are the same; only their order, which neither
// defines, differs. The aggregate runs per worker with a partitioned merge
// and groups dictionary columns by their codes, where the Distinct operator
// runs on one goroutine over values. A DISTINCT under a LIMIT (through
// projections) stays a Distinct: it streams, and stops after LIMIT rows.
//
// Only a DISTINCT of two or more columns is rewritten. Over one column the
// Distinct operator is the faster: on 10M Parquet rows DISTINCT user_id
// took 0.16 s of CPU as a Distinct and 0.36 s as a GROUP BY, DISTINCT title
// (nearly every row distinct) 6.2 s and 1.7 GB against 10.9 s and 3.3 GB,
// since each worker's partial table then holds almost every row and the
// merge holds them again. The three columns of DISTINCT region, category,
// flag (4,000 combinations) took 0.76 s as a Distinct, 0.36 s as a GROUP
// BY. The planner knows no column cardinalities to choose by.
func groupDistinct(n Node) Node { return groupDistinctUnder(n, false) }

func groupDistinctUnder(n Node, limited bool) Node {
	kidsLimited := false
	switch x := n.(type) {
	case *Limit:
		kidsLimited = x.Count >= 0
	case *Project:
		kidsLimited = limited
	}
	n = mapChildren(n, func(k Node) Node { return groupDistinctUnder(k, kidsLimited) })
	d, ok := n.(*Distinct)
	if !ok || limited || len(d.Input.Schema()) < 2 {
		return n
	}
	if _, ok := pipelineScan(d.Input); !ok {
		return n
	}
	cols := d.Input.Schema()
	a := &Aggregate{Input: d.Input, Out: cols}
	for _, c := range cols {
		a.Groups = append(a.Groups, &ColRef{Col: c})
	}
	return a
}
