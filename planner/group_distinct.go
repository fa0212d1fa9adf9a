package planner

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
