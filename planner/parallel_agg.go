package planner

import (
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// mergePartitions is the number of partitions per worker of a parallel
// GROUP BY's final phase: with several per worker, the finals open at a
// time (a worker's plus one) hold a fraction of the groups.
const mergePartitions = 8

// partitionMerge builds the parallel final phase over partials: one
// executor.PartitionSource per partition of the rows, hashed on the
// partial columns keys, and over each the operators final builds. bounds,
// when not nil, gives the bounds of a single integer key over the input
// (keyBounds).
func (bd *builder) partitionMerge(partials []executor.Operator, keys []int, bounds func() (int64, int64, bool), final func(src executor.Operator) (executor.Operator, error)) (executor.Operator, error) {
	ptypes := partials[0].Types()
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = "#" + strconv.Itoa(k)
	}
	desc := "PartitionSource by [" + strings.Join(names, ", ") + "] of workers=" + strconv.Itoa(len(partials))
	m := &executor.PartitionMerge{Partials: partials, Keys: keys, KeyBounds: bounds}
	for range mergePartitions * len(partials) {
		src := &executor.PartitionSource{Out: ptypes, Child: partials[0], Desc: desc}
		f, err := final(bd.wrap(src))
		if err != nil {
			return nil, err
		}
		m.Sources = append(m.Sources, src)
		m.Finals = append(m.Finals, f)
	}
	return bd.wrap(m), nil
}

// parallelStacked builds an aggregate n over an aggregate inner whose
// groups n groups by a subset of (a split DISTINCT aggregate, planner
// distinct_agg.go: GROUP BY g, x under GROUP BY g). Partitioning inner's
// partial groups on n's keys puts every inner group of an outer group in
// one partition, so each partition runs inner's final and n whole, in
// parallel:
//
//	PartitionMerge
//	└─ HashAggregate n → HashAggregate (final inner) → PartitionSource by n's keys
//	                                                    └─ HashAggregate (partial inner)
//
// It returns nil when the shape does not match or inner does not qualify
// for a parallel plan.
func (bd *builder) parallelStacked(n *Aggregate) (executor.Operator, error) {
	inner, ok := n.Input.(*Aggregate)
	if !ok || len(n.Groups) == 0 || len(inner.Groups) == 0 || bd.threads() < 2 {
		return nil, nil
	}
	if _, ok := pipelineScan(inner.Input); !ok {
		return nil, nil
	}
	pos := map[ColID]int{}
	for i := range inner.Groups {
		pos[inner.Out[i].ID] = i
	}
	keys := make([]int, len(n.Groups))
	for i, g := range n.Groups {
		r, ok := g.(*ColRef)
		if !ok {
			return nil, nil
		}
		if keys[i], ok = pos[r.Col.ID]; !ok {
			return nil, nil
		}
	}
	for _, a := range inner.Aggs {
		if a.Distinct || a.Func.Holistic() && !a.Func.KeepsOne() {
			return nil, nil
		}
	}
	bd.planDict(inner)
	partials, err := bd.partialAggregates(inner)
	if partials == nil || err != nil {
		return nil, err
	}
	fused := fusedDistinct(n, inner)
	return bd.partitionMerge(partials, keys, nil, func(src executor.Operator) (executor.Operator, error) {
		if fused != nil {
			return bd.compileAggregate(fused, src)
		}
		in, err := bd.finalAggregate(inner, src)
		if err != nil {
			return nil, err
		}
		return bd.compileAggregate(n, in)
	})
}

// fusedDistinct returns n as one DISTINCT aggregate over inner's columns
// when n aggregates the pairs inner deduplicates and nothing else (a split
// DISTINCT aggregate: GROUP BY g of count(x) over GROUP BY g, x): then a
// partition's final numbers n's groups once and counts each (group, x)
// pair it has not seen (executor distinctPairs), instead of numbering
// every (g, x) in a final of inner, emitting them and numbering g again
// (TPC-H Q16: 119,516 pairs under 18,325 groups of three keys, two of
// them strings). Only aggregates whose DISTINCT form is their value over
// the deduplicated x qualify: count(x) (a NULL x is one inner group, not
// counted either way), sum, avg, min, max; it returns nil otherwise.
func fusedDistinct(n, inner *Aggregate) *Aggregate {
	if len(inner.Aggs) > 0 || len(inner.Groups) != len(n.Groups)+1 || len(n.Aggs) == 0 {
		return nil
	}
	grouped := map[ColID]bool{}
	for _, g := range n.Groups {
		grouped[g.(*ColRef).Col.ID] = true // parallelStacked checked they are
	}
	if len(grouped) != len(n.Groups) {
		return nil // a key twice: inner has two columns n does not group by
	}
	var x ColID = -1
	for _, c := range inner.Out {
		if !grouped[c.ID] {
			x = c.ID
		}
	}
	aggs := make([]AggCall, len(n.Aggs))
	for i, a := range n.Aggs {
		r, ok := a.Arg.(*ColRef)
		if !ok || r.Col.ID != x || a.Filter != nil || a.Distinct {
			return nil
		}
		switch a.Func {
		case AggCount, AggSum, AggAvg, AggMin, AggMax:
		default:
			return nil
		}
		aggs[i] = a
		aggs[i].Distinct = true
	}
	f := *n
	f.Aggs = aggs
	return &f
}

// compileAggregate builds n as one HashAgg over in, whose columns are n's
// input schema: the serial plan's aggregate (build.go) and each
// partition's final here.
func (bd *builder) compileAggregate(n *Aggregate, in executor.Operator) (executor.Operator, error) {
	lay := layout(n.Input.Schema())
	groups := make([]executor.Expr, len(n.Groups))
	for i, g := range n.Groups {
		x, err := CompileExpr(g, lay)
		if err != nil {
			return nil, err
		}
		groups[i] = x
	}
	aggs := make([]executor.AggSpec, len(n.Aggs))
	for i, a := range n.Aggs {
		spec := executor.AggSpec{Kind: executor.AggKind(a.Func), Distinct: a.Distinct, Type: a.Type, Name: aggString(a), Param: a.Param, Bound: bd.aggBound(n, i)}
		var err error
		if a.Arg != nil {
			if spec.Arg, err = CompileExpr(a.Arg, lay); err != nil {
				return nil, err
			}
		}
		if a.Arg2 != nil {
			if spec.Arg2, err = CompileExpr(a.Arg2, lay); err != nil {
				return nil, err
			}
		}
		if a.Filter != nil {
			if spec.Filter, err = CompileExpr(a.Filter, lay); err != nil {
				return nil, err
			}
		}
		aggs[i] = spec
	}
	return bd.wrap(&executor.HashAgg{Input: in, Groups: groups, Aggs: aggs}), nil
}

// parallelAggregate builds the two-phase plan for n, or returns nil when n
// does not qualify. A GROUP BY merges its partials in parallel, one final
// per hash partition of the keys (executor.PartitionMerge); a grand total
// has one group, merged by one final over a Gather.
func (bd *builder) parallelAggregate(n *Aggregate) (executor.Operator, error) {
	if op, err := bd.parallelStacked(n); op != nil || err != nil { // parallel_merge.go
		return op, err
	}
	if n.OnePhase {
		return nil, nil // its input is parallel below; it is not
	}
	partials, err := bd.partialAggregates(n)
	if partials == nil || err != nil {
		return nil, err
	}
	if n.Partial {
		// The workers' groups as they are: the aggregate above merges
		// them (a SUM, MIN or MAX partial is its final's type).
		return bd.wrap(&executor.Gather{Inputs: partials}), nil
	}
	if len(n.Groups) == 0 {
		gather := bd.wrap(&executor.Gather{Inputs: partials})
		return bd.finalAggregate(n, gather)
	}
	keys := make([]int, len(n.Groups))
	for i := range keys {
		keys[i] = i
	}
	return bd.partitionMerge(partials, keys, keyBounds(n), func(src executor.Operator) (executor.Operator, error) {
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

// keyBounds returns, for an aggregate grouping by one integer column of
// the table its pipeline scans, a function giving that column's least and
// greatest value from the table's statistics (StatsProvider), asked only
// when the merge needs them, at Open (Build does no I/O); else nil. The
// bounds hold whatever filters and joins keep of the rows.
func keyBounds(n *Aggregate) func() (int64, int64, bool) {
	if len(n.Groups) != 1 {
		return nil
	}
	ref, ok := n.Groups[0].(*ColRef)
	if !ok || !ref.Type().IsInteger() || ref.Type().ID == columnar.Uint64 {
		return nil // a UBIGINT's values do not all fit the int64 bounds
	}
	scan, ok := pipelineScan(n.Input)
	if !ok {
		return nil
	}
	sp, ok := scan.Table.(StatsProvider)
	if !ok {
		return nil
	}
	col := -1
	for i, c := range scan.Cols {
		if c.ID == ref.Col.ID {
			col = scan.TableCols[i]
		}
	}
	if col < 0 {
		return nil
	}
	return func() (int64, int64, bool) {
		st, ok := sp.ColumnStats(col)
		if !ok || !st.HasMinMax || st.Min.Null || st.Max.Null || !st.Min.Type.IsSigned() || !st.Max.Type.IsSigned() {
			return 0, 0, false
		}
		return st.Min.I, st.Max.I, true
	}
}
