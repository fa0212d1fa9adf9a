package planner

import (
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/executor"
)

// mergePartitions is the number of partitions per worker of a parallel
// GROUP BY's final phase: with several per worker, the finals open at a
// time (a worker's plus one) hold a fraction of the groups.
const mergePartitions = 8

// partitionMerge builds the parallel final phase over partials: one
// executor.PartitionSource per partition of the rows, hashed on the
// partial columns keys, and over each the operators final builds.
func (bd *builder) partitionMerge(partials []executor.Operator, keys []int, final func(src executor.Operator) (executor.Operator, error)) (executor.Operator, error) {
	ptypes := partials[0].Types()
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = "#" + strconv.Itoa(k)
	}
	desc := "PartitionSource by [" + strings.Join(names, ", ") + "] of workers=" + strconv.Itoa(len(partials))
	m := &executor.PartitionMerge{Partials: partials, Keys: keys}
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
	return bd.partitionMerge(partials, keys, func(src executor.Operator) (executor.Operator, error) {
		in, err := bd.finalAggregate(inner, src)
		if err != nil {
			return nil, err
		}
		return bd.compileAggregate(n, in)
	})
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
