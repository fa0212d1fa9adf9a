package planner

import (
	"context"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/index"
)

// Parallel plans (morsel-driven): when a blocking operator (Aggregate,
// TopK) sits on a pipeline of Filters, Projects and the probe sides of hash
// joins (whose build side is built once and shared) over a scan whose table
// splits into units, Build makes one copy of the pipeline per worker. Each
// copy reads units taken from a shared queue and ends in a partial
// operator; a Gather merges the partial results and a final operator
// combines them:
//
//	PartitionMerge partitions=N
//	└─ HashAggregate (final: sum of counts, min of mins, avg from sum/count) × N
//	   └─ PartitionSource: partition p of every partial's groups, by key hash
//	      └─ HashAggregate (partial)        × N, one per worker
//	         └─ Filter → Scan (unit queue)
//
// (a grand total, one group, is merged by one final over a Gather).
// Aggregates that cannot be combined from partials (DISTINCT, holistic) keep
// the serial plan, whose scan still decodes in parallel; DISTINCT ones that
// SplitDistinct turned into two stacked aggregates run both per partition
// (parallel_merge.go).

// pipelineScan returns the scan at the bottom of a Filter/Project/Unnest chain, if
// the chain is nothing else and the scan can be split into units.
func pipelineScan(n Node) (*Scan, bool) {
	if empty(n) { // empty.go: the serial build answers it with no work
		return nil, false
	}
	for {
		switch x := n.(type) {
		case *Filter:
			n = x.Input
		case *Project:
			n = x.Input
		case *Unnest: // rows of one input row stay together; order is free here
			n = x.Input
		case *Join:
			switch {
			case probeInParallel(x): // build_join.go
				n = x.Left
			case probesRight(x): // run swapped: the right probes
				n = x.Right
			default:
				return nil, false
			}
		case *Scan:
			_, ok := x.Table.(UnitScanner)
			return x, ok && x.Limit < 0
		default:
			return nil, false
		}
	}
}

// workerChains builds threads copies of the Filter/Project chain n, each
// over its own UnitSource sharing one unit queue.
func (bd *builder) workerChains(n Node, scan *Scan, threads int) ([]executor.Operator, error) {
	spec := bd.scanSpec(scan)
	spec.Limit, spec.Threads = -1, 1
	spec.DictCols = bd.dict[scan]
	types := make([]columnar.Type, len(scan.Cols))
	for i, c := range scan.Cols {
		types[i] = c.Type
	}
	table := scan.Table.(UnitScanner)
	bd.warm(scan.Table, spec)
	chainFilters := bd.planChainFilters(n) // joinfilter_chain.go
	defer bd.dropJoinFilters(chainFilters)
	jf := &scanFilters{list: bd.takeJoinFilters(scan), scan: scan, analyze: bd.opts.Analyze}
	var once sync.Once
	var queue *executor.UnitQueue
	var qerr error
	queueFn := func(ctx context.Context) (*executor.UnitQueue, error) {
		once.Do(func() {
			*spec.Stats = index.ScanStats{}
			spec.ResetBounds()
			units, err := startFiltered(ctx, jf, spec, func(s index.ScanSpec) ([]ScanUnit, error) { return table.ScanUnits(ctx, s) })
			if err != nil {
				qerr = err
				return
			}
			queue = &executor.UnitQueue{Units: units, Done: &spec.Stats.UnitsDone}
		})
		return queue, qerr
	}
	desc := sync.OnceValue(func() string { return scanString(scan, spec) + jf.describe() })
	out := make([]executor.Operator, threads)
	for w := range out {
		src := &executor.UnitSource{Queue: queueFn, Out: types, Describe: desc}
		bd.built.scans[src] = spec.Stats
		op, err := bd.chain(n, jf.wrap(bd, bd.wrap(src)))
		if err != nil {
			return nil, err
		}
		out[w] = op
	}
	return out, nil
}

// chain builds the Filter/Project/Unnest nodes of n over src (the scan's stand-in).
func (bd *builder) chain(n Node, src executor.Operator) (executor.Operator, error) {
	switch x := n.(type) {
	case *Scan:
		return src, nil
	case *Filter:
		in, err := bd.chain(x.Input, src)
		if err != nil {
			return nil, err
		}
		cond, err := CompileExpr(x.Cond, layout(x.Input.Schema()))
		if err != nil {
			return nil, err
		}
		return bd.wrap(&executor.Filter{Input: in, Cond: cond, Desc: x.Cond.String()}), nil
	case *Project:
		in, err := bd.chain(x.Input, src)
		if err != nil {
			return nil, err
		}
		lay := layout(x.Input.Schema())
		exprs := make([]executor.Expr, len(x.Exprs))
		names := make([]string, len(x.Exprs))
		for i, e := range x.Exprs {
			c, err := CompileExpr(e, lay)
			if err != nil {
				return nil, err
			}
			exprs[i], names[i] = c, e.String()
		}
		return bd.wrap(&executor.Project{Input: in, Exprs: exprs, Names: names}), nil
	case *Unnest:
		in, err := bd.chain(x.Input, src)
		if err != nil {
			return nil, err
		}
		return bd.buildUnnest(x, in) // unnest.go
	case *Join:
		if !probeInParallel(x) {
			// Swapped (probesRight): the copy probes with the right side
			// and shares the left's build; a Project restores the order.
			sw := bd.swappedOf(x)
			in, err := bd.chain(x.Right, src)
			if err != nil {
				return nil, err
			}
			op, err := bd.probeCopy(sw, in)
			if err != nil {
				return nil, err
			}
			return bd.restoreOrder(x, sw, op), nil
		}
		in, err := bd.chain(x.Left, src)
		if err != nil {
			return nil, err
		}
		return bd.probeCopy(x, in) // build_join.go
	}
	return nil, errNotChain
}

var errNotChain = &planError{"not a pipeline chain"}

type planError struct{ msg string }

func (e *planError) Error() string { return "planner: " + e.msg }

// parallelTopK runs one TopK per worker and a final TopK over their union.
// The partial TopKs all publish into bound (nil: no top-k pruning): each
// partial k-th key bounds the final k-th key, so any of them lets the
// shared scan skip units.
func (bd *builder) parallelTopK(n *TopK, bound *index.TopKBound) (executor.Operator, error) {
	threads := bd.threads()
	scan, ok := pipelineScan(n.Input)
	if !ok || threads < 2 {
		return nil, nil
	}
	chains, err := bd.workerChains(n.Input, scan, threads)
	if err != nil {
		return nil, err
	}
	lay := layout(n.Input.Schema())
	partials := make([]executor.Operator, threads)
	for w := range partials {
		keys, err := compileKeys(n.Keys, lay)
		if err != nil {
			return nil, err
		}
		partials[w] = bd.wrap(&executor.TopK{Input: chains[w], Keys: keys, Count: n.Count + n.Offset, Bound: bound})
	}
	keys, err := compileKeys(n.Keys, lay)
	if err != nil {
		return nil, err
	}
	gather := bd.wrap(&executor.Gather{Inputs: partials})
	return bd.wrap(&executor.TopK{Input: gather, Keys: keys, Count: n.Count, Offset: n.Offset}), nil
}
