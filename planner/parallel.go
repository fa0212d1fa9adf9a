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

// parallelAggregate builds the two-phase plan for n, or returns nil when n
// does not qualify. A GROUP BY merges its partials in parallel, one final
// per hash partition of the keys (executor.PartitionMerge); a grand total
// has one group, merged by one final over a Gather.
func (bd *builder) parallelAggregate(n *Aggregate) (executor.Operator, error) {
	if op, err := bd.parallelStacked(n); op != nil || err != nil { // parallel_merge.go
		return op, err
	}
	partials, err := bd.partialAggregates(n)
	if partials == nil || err != nil {
		return nil, err
	}
	if len(n.Groups) == 0 {
		gather := bd.wrap(&executor.Gather{Inputs: partials})
		return bd.finalAggregate(n, gather)
	}
	keys := make([]int, len(n.Groups))
	for i := range keys {
		keys[i] = i
	}
	return bd.partitionMerge(partials, keys, func(src executor.Operator) (executor.Operator, error) {
		return bd.finalAggregate(n, src)
	})
}

// partialAggregates builds one partial aggregate of n per worker, each
// over its copy of the pipeline below n, or returns nil when n does not
// qualify for a parallel plan.
func (bd *builder) partialAggregates(n *Aggregate) ([]executor.Operator, error) {
	threads := bd.threads()
	scan, ok := pipelineScan(n.Input)
	if !ok || threads < 2 {
		return nil, nil
	}
	for _, a := range n.Aggs {
		if a.Distinct || a.Func.Holistic() && !a.Func.KeepsOne() {
			return nil, nil
		}
	}
	chains, err := bd.workerChains(n.Input, scan, threads)
	if err != nil {
		return nil, err
	}
	lay := layout(n.Input.Schema())
	ng := len(n.Groups)
	partials := make([]executor.Operator, threads)
	for w := range partials {
		groups := make([]executor.Expr, ng)
		for i, g := range n.Groups {
			x, err := CompileExpr(g, lay)
			if err != nil {
				return nil, err
			}
			groups[i] = x
		}
		var aggs []executor.AggSpec
		for i, a := range n.Aggs {
			var arg executor.Expr
			if a.Arg != nil {
				if arg, err = CompileExpr(a.Arg, lay); err != nil {
					return nil, err
				}
			}
			name := aggString(a)
			first := len(aggs)
			switch a.Func {
			case AggArgMax, AggArgMin:
				// The partial arg and its best val, as arg_max(val, val)
				// so that both compare vals alike (argminmax.go); the
				// val of a row whose arg is NULL is no candidate, as
				// arg_max skips that row.
				val, err := CompileExpr(&Case{Whens: []When{{Cond: &Call{Fn: "is_not_null", Args: []Expr{a.Arg}, T: columnar.TBool}, Then: a.Arg2}}, T: a.Arg2.Type()}, lay)
				if err != nil {
					return nil, err
				}
				aggs = append(aggs,
					executor.AggSpec{Kind: executor.AggKind(a.Func), Arg: arg, Arg2: val, Type: a.Type, Name: "partial " + name},
					executor.AggSpec{Kind: executor.AggKind(a.Func), Arg: val, Arg2: val, Type: a.Arg2.Type(), Name: "partial best of " + name})
			case AggFirst, AggLast:
				// The partial value and whether the worker saw a row of
				// the group: an ungrouped worker that saw none gives a
				// NULL that is no first value (the final first skips it).
				aggs = append(aggs,
					executor.AggSpec{Kind: executor.AggKind(a.Func), Arg: arg, Type: a.Type, Name: "partial " + name},
					executor.AggSpec{Kind: executor.AggCountStar, Type: columnar.TInt64, Name: "partial rows of " + name})
			case AggAvg:
				aggs = append(aggs,
					executor.AggSpec{Kind: executor.AggSum, Arg: arg, Type: columnar.TFloat64, Name: "partial sum of " + name},
					executor.AggSpec{Kind: executor.AggCount, Arg: arg, Type: columnar.TInt64, Name: "partial count of " + name})
			default:
				aggs = append(aggs, executor.AggSpec{Kind: executor.AggKind(a.Func), Arg: arg, Type: a.Type, Name: "partial " + name, Bound: bd.aggBound(n, i)})
			}
			if a.Filter != nil {
				// Each partial column of a filtered call sees the filtered
				// rows only; the final merges partials, unfiltered.
				for k := first; k < len(aggs); k++ {
					if aggs[k].Filter, err = CompileExpr(a.Filter, lay); err != nil {
						return nil, err
					}
				}
			}
		}
		partials[w] = bd.wrap(&executor.HashAgg{Input: chains[w], Groups: groups, Aggs: aggs, Partial: true})
	}
	return partials, nil
}

// finalAggregate builds the final phase of n over in, whose rows are
// partial results: the group keys, then each aggregate's partial columns.
func (bd *builder) finalAggregate(n *Aggregate, in executor.Operator) (executor.Operator, error) {
	ptypes := in.Types()
	ng := len(n.Groups)
	groups := make([]executor.Expr, ng)
	for i := range groups {
		groups[i] = executor.ColumnExpr(i, ptypes[i])
	}
	var aggs []executor.AggSpec
	col := ng
	for _, a := range n.Aggs {
		name := aggString(a)
		switch a.Func {
		case AggArgMax, AggArgMin:
			aggs = append(aggs, executor.AggSpec{Kind: executor.AggKind(a.Func), Arg: executor.ColumnExpr(col, ptypes[col]), Arg2: executor.ColumnExpr(col+1, ptypes[col+1]), Type: a.Type, Name: name})
			col += 2
		case AggFirst, AggLast:
			aggs = append(aggs, executor.AggSpec{Kind: executor.AggKind(a.Func), Arg: executor.ColumnExpr(col, ptypes[col]), Arg2: executor.ColumnExpr(col+1, ptypes[col+1]), Type: a.Type, Name: name})
			col += 2
		case AggAvg:
			aggs = append(aggs, executor.AggSpec{Kind: executor.AggAvgMerge, Arg: executor.ColumnExpr(col, ptypes[col]), Arg2: executor.ColumnExpr(col+1, ptypes[col+1]), Type: a.Type, Name: name})
			col += 2
		case AggCountStar, AggCount, AggSum:
			aggs = append(aggs, executor.AggSpec{Kind: executor.AggSum, Arg: executor.ColumnExpr(col, ptypes[col]), Type: a.Type, Name: name})
			col++
		default:
			aggs = append(aggs, executor.AggSpec{Kind: executor.AggKind(a.Func), Arg: executor.ColumnExpr(col, ptypes[col]), Type: a.Type, Name: name})
			col++
		}
	}
	return bd.wrap(&executor.HashAgg{Input: in, Groups: groups, Aggs: aggs}), nil
}

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
