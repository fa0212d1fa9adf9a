package planner

import (
	"context"
	"fmt"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/index"
)

// Build turns an optimized logical plan into operators. It does no I/O.
func Build(n Node, opts BuildOptions) (*Built, error) {
	bd := &builder{opts: opts, built: &Built{scans: map[executor.Operator]*index.ScanStats{}, remote: map[*index.ScanStats]IOReporter{}, Memory: newManager(opts)}}
	bd.reopens = reopens(n) // parallel_build.go
	if !opts.AnyOrder {
		bd.ordered = orderedScans(n) // order.go
	}
	root, err := bd.build(n)
	if err != nil {
		return nil, err
	}
	bd.built.Root = &executor.QueryRoot{Operator: root, CTEs: bd.built.ctes, Memory: bd.built.Memory, Warm: bd.built.warm}
	return bd.built, nil
}

func (bd *builder) build(n Node) (executor.Operator, error) {
	if _, values := n.(*Values); !values && empty(n) {
		return bd.buildEmpty(n), nil // empty.go
	}
	switch n := n.(type) {
	case *Scan:
		return bd.buildScan(n)
	case *Values:
		rows := make([][]executor.Expr, len(n.Rows))
		for r, row := range n.Rows {
			rows[r] = make([]executor.Expr, len(row))
			for c, e := range row {
				x, err := CompileExpr(e, nil)
				if err != nil {
					return nil, err
				}
				rows[r][c] = x
			}
		}
		types := make([]columnar.Type, len(n.Out))
		for i, c := range n.Out {
			types[i] = c.Type
		}
		return bd.wrap(&executor.Values{Rows: rows, Out: types, Note: n.Note}), nil
	}
	switch x := n.(type) {
	case *Join:
		return bd.buildJoin(x)
	case *SetOp:
		return bd.buildSetOp(x)
	case *RecursiveCTE:
		return bd.buildRecursive(x)
	case *Window:
		return bd.buildWindow(x)
	case *WorkScan:
		return bd.wrap(&executor.WorkScan{Work: bd.workTable(x.Work)}), nil
	case *CTERef:
		return bd.build(x.Input)
	case *CTEScan:
		return bd.buildCTEScan(x)
	case *Aggregate:
		if err := bd.bitstringBounds(x); err != nil { // bitstring_agg.go
			return nil, err
		}
		bd.planDict(x)
		bd.extremeBounds(x) // before the scan under x is built
		if op, err := bd.parallelAggregate(x); op != nil || err != nil {
			return op, err
		}
	case *PositionalJoin:
		return bd.buildPositionalJoin(x) // join_positional.go
	case *LimitBy:
		in, err := bd.build(x.Input)
		if err != nil {
			return nil, err
		}
		bounds, err := bd.build(x.Bounds)
		if err != nil {
			return nil, err
		}
		return bd.wrap(&executor.LimitBy{Limit: executor.Limit{Input: in, Count: -1}, Bounds: bounds, Percent: x.Percent}), nil
	case *AsofJoin:
		return bd.buildAsofJoin(x)
	case *Sample:
		if x.Seeded {
			// A seed picks the same rows only from the same input order:
			// one thread reads it, in order.
			saved := bd.opts.Threads
			bd.opts.Threads = 1
			in, err := bd.build(x.Input)
			bd.opts.Threads = saved
			if err != nil {
				return nil, err
			}
			return bd.buildSample(x, in), nil
		}
	case *TopK:
		if op, err := bd.sortedLimit(x); op != nil || err != nil {
			return op, err
		}
		if op, err := bd.parallelTopK(x, bd.topKBound(x)); op != nil || err != nil {
			return op, err
		}
	}
	// The rest take one input; a node of another kind, or one no case
	// below knows, is an error, never built around.
	kids := n.Children()
	if len(kids) != 1 {
		return nil, fmt.Errorf("planner: cannot build %T", n)
	}
	in, err := bd.build(kids[0])
	if err != nil {
		return nil, err
	}
	lay := layout(kids[0].Schema())
	switch n := n.(type) {
	case *Filter:
		cond, err := CompileExpr(n.Cond, lay)
		if err != nil {
			return nil, err
		}
		return bd.wrap(&executor.Filter{Input: in, Cond: cond, Desc: n.Cond.String()}), nil
	case *Project:
		exprs := make([]executor.Expr, len(n.Exprs))
		names := make([]string, len(n.Exprs))
		for i, e := range n.Exprs {
			x, err := CompileExpr(e, lay)
			if err != nil {
				return nil, err
			}
			exprs[i] = x
			names[i] = e.String()
		}
		return bd.wrap(&executor.Project{Input: in, Exprs: exprs, Names: names}), nil
	case *Aggregate:
		return bd.compileAggregate(n, in) // parallel_merge.go
	case *Sort:
		keys, err := compileKeys(n.Keys, lay)
		if err != nil {
			return nil, err
		}
		return bd.wrap(&executor.Sort{Input: in, Keys: keys}), nil
	case *TopK:
		keys, err := compileKeys(n.Keys, lay)
		if err != nil {
			return nil, err
		}
		return bd.wrap(&executor.TopK{Input: in, Keys: keys, Count: n.Count, Offset: n.Offset, Bound: bd.topks[n]}), nil
	case *Limit:
		return bd.wrap(&executor.Limit{Input: in, Count: n.Count, Offset: n.Offset}), nil
	case *LimitPercent:
		return bd.wrap(&executor.LimitPercent{Input: in, Percent: n.Percent, Offset: n.Offset}), nil
	case *Sample:
		return bd.buildSample(n, in), nil
	case *Distinct:
		return bd.wrap(&executor.Distinct{Input: in}), nil
	case *Unnest:
		return bd.buildUnnest(n, in) // unnest.go
	}
	return nil, fmt.Errorf("planner: cannot build %T", n)
}

func (bd *builder) buildScan(n *Scan) (executor.Operator, error) {
	spec := bd.scanSpec(n)
	spec.DictCols = bd.dict[n]
	types := make([]columnar.Type, len(n.Cols))
	for i, c := range n.Cols {
		types[i] = c.Type
	}
	table := n.Table
	bd.warm(table, spec)
	jf := &scanFilters{list: bd.takeJoinFilters(n), scan: n, analyze: bd.opts.Analyze}
	op := &executor.Scan{
		Start: func(ctx context.Context) (columnar.Reader, error) {
			*spec.Stats = index.ScanStats{}
			spec.ResetBounds()
			return startFiltered(ctx, jf, spec, func(s index.ScanSpec) (columnar.Reader, error) { return table.Scan(ctx, s) })
		},
		Out:      types,
		Describe: sync.OnceValue(func() string { return scanString(n, spec) + jf.describe() }),
	}
	bd.built.scans[op] = spec.Stats
	return jf.wrap(bd, bd.wrap(op)), nil
}
