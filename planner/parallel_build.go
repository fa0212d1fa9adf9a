package planner

import "github.com/b2sql/b2sql/executor"

// Parallel inputs of joins: a hash join reads its build side whole into a
// table, and a probe-first join (joinfilter_probe.go) holds its probe
// side's rows, before either produces anything; neither cares in which
// order those rows arrive. So when such an input is a pipeline chain over
// a unit scan (pipelineScan: Filters, Projects and join probe sides) it is
// built as one copy of the chain per worker under a Gather, as the input of
// a parallel aggregate is, instead of running its filters and joins on one
// thread:
//
//	HashJoin INNER orders.o_orderkey = lineitem.l_orderkey
//	├─ Scan orders
//	└─ Gather workers=2
//	   └─ HashJoin INNER lineitem.l_partkey = part.p_partkey   × 2, one build
//	      ├─ Scan lineitem (unit queue)
//	      └─ Filter → Scan part
//
// TPC-H Q9 builds its whole lineitem⋈part⋈supplier⋈nation⋈partsupp chain
// that way. Join filters targeted at the chain's scan still apply (the
// shared scan takes them, workerChains); the scan's unit queue starts when
// the first worker opens, after the join reading the input has filled them.

// buildUnordered builds n, an input whose row order nothing depends on, as
// a Gather over parallel copies of its chain when that can run on several
// threads and has some per-row work (a Filter or a join) to share; else as
// any other node.
func (bd *builder) buildUnordered(n Node) (executor.Operator, error) {
	threads := bd.threads()
	if threads < 2 || bd.reopens || !chainWork(n) {
		return bd.build(n)
	}
	scan, ok := pipelineScan(n) // parallel.go
	if !ok {
		return bd.build(n)
	}
	chains, err := bd.workerChains(n, scan, threads)
	if err != nil {
		return nil, err
	}
	return bd.wrap(&executor.Gather{Inputs: chains}), nil
}

// chainWork reports whether the Filter/Project/Join chain n filters rows
// or probes a join on its way to its scan: a bare scan (with Projects)
// decodes in parallel already, and a Gather would only add a hand-over per
// batch.
func chainWork(n Node) bool {
	for {
		switch x := n.(type) {
		case *Filter, *Join, *Unnest:
			return true
		case *Project:
			n = x.Input
		default:
			return false
		}
	}
}
