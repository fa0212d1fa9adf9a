package planner

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/index"
)

// BuildOptions tune the physical plan.
type BuildOptions struct {
	Threads int  // scan parallelism (0 = GOMAXPROCS)
	NoPrune bool // scans must not skip data by statistics
	// ScanRulesOff lists scan fast paths switched off one by one.
	ScanRulesOff index.RuleSet
	Analyze      bool // wrap operators to count rows and time (EXPLAIN ANALYZE)
	// MemoryLimit is the limit of the query's memory manager
	// (executor/memory), which the operators that hold data reserve from;
	// 0 means the default limit (memory.DefaultLimit), < 0 none.
	MemoryLimit int64
	// TempDirectory is where operators spill ("": the system's temp
	// directory); MaxTempSize bounds the spill files (<= 0: no bound).
	TempDirectory string
	NoSpill       bool // temp_directory = '': operators must not spill
	MaxTempSize   int64
	// AnyOrder is preserve_insertion_order = false: scans whose rows reach
	// the result unsorted may return them in any order (order.go).
	AnyOrder bool
}

// Built is a physical plan with the bookkeeping EXPLAIN ANALYZE reads.
type Built struct {
	Root executor.Operator
	// Memory is the query's memory manager; the operators reserve from it
	// and free on Close (EXPLAIN ANALYZE reads their peaks).
	Memory *memory.Manager
	scans  map[executor.Operator]*index.ScanStats
	// remote maps the counters of a scan of a table read from a server to
	// that table, whose I/O counters EXPLAIN ANALYZE and Fetched read.
	remote map[*index.ScanStats]IOReporter
	ctes   []*executor.CTE // materialized WITH entries, shown before Root by Explain
	warm   []func()        // the remote scans' Warm (QueryRoot.Warm)
	// Rules are the optimizer rules that changed the plan (Optimize's
	// answer), listed by Explain under the operators.
	Rules []string
}

// ScanStats returns the counters of the scan operator op, if it is one.
func (b *Built) ScanStats(op executor.Operator) (*index.ScanStats, bool) {
	s, ok := b.scans[op]
	return s, ok
}

// Tree is the plan's operator tree: Root without the QueryRoot that ends
// the query.
func (b *Built) Tree() executor.Operator {
	if q, ok := b.Root.(*executor.QueryRoot); ok {
		return q.Operator
	}
	return b.Root
}

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

type builder struct {
	opts   BuildOptions
	built  *Built
	work   map[*WorkTable]*executor.WorkTable // recursive CTEs' work tables
	dict   map[*Scan][]int                    // scan -> output columns it may hand over coded (dict.go)
	bounds map[*Scan]*index.TopKBound         // top-k bounds, by the scan they prune
	topks  map[*TopK]*index.TopKBound         // the same bounds, by the TopK that publishes
	// MIN/MAX bounds (extremes.go): by the scan they prune, and by the
	// aggregate whose MIN/MAX publish them (one per aggregate, nil for
	// the others).
	extremes    map[*Scan][]*index.TopKBound
	aggExtremes map[*Aggregate][]*index.TopKBound
	joins       map[*Join]*executor.JoinBuild // build sides shared by parallel probes (build_join.go)
	swaps       map[*Join]*Join               // inner joins run with their sides swapped, once each (build_join.go)
	// Runtime join filters waiting for their probe-side scan, and those of
	// the joins of parallel pipelines (joinfilter.go).
	joinFilters   map[*Scan][]scanJoinFilter
	joinFiltersOf map[*Join][]*executor.JoinFilter
	ctes          map[*CTE]*executor.CTE // materialized WITH entries (cte_build.go)
	reopens       bool                   // some operator is opened again: serial build sides (parallel_build.go)
	ordered       map[*Scan]bool         // scans whose rows keep table order (order.go)
}

func (bd *builder) threads() int {
	if bd.opts.Threads > 0 {
		return bd.opts.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// layout maps each column of a node's output to its position.
func layout(cols []Column) map[ColID]int {
	m := make(map[ColID]int, len(cols))
	for i, c := range cols {
		m[c.ID] = i
	}
	return m
}

// newManager makes the query's memory manager from the options.
func newManager(opts BuildOptions) *memory.Manager {
	limit := opts.MemoryLimit
	if limit == 0 {
		limit = memory.DefaultLimit()
	}
	temp := opts.TempDirectory
	switch {
	case opts.NoSpill:
		temp = ""
	case temp == "":
		temp = os.TempDir()
	}
	memory.SetRuntimeBackstop(limit)
	return memory.NewManager(limit, temp, opts.MaxTempSize)
}

func (bd *builder) wrap(op executor.Operator) executor.Operator {
	if mu, ok := op.(executor.MemoryUser); ok {
		mu.SetMemory(bd.built.Memory)
	}
	if bd.opts.Analyze {
		w := &executor.Instrumented{Operator: op}
		if s, ok := bd.built.scans[op]; ok {
			bd.built.scans[w] = s
		}
		return w
	}
	return op
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
		bd.planDict(x)
		bd.extremeBounds(x) // before the scan under x is built
		if op, err := bd.parallelAggregate(x); op != nil || err != nil {
			return op, err
		}
	case *PositionalJoin:
		return bd.buildPositionalJoin(x) // join_positional.go
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
	kids := n.Children()
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

func aggString(a AggCall) string {
	return aggCallText(a) + filterText(a)
}

func aggCallText(a AggCall) string {
	if a.Func == AggCountStar {
		return "count(*)"
	}
	d := ""
	if a.Distinct {
		d = "DISTINCT "
	}
	if a.Arg2 != nil {
		return a.Func.String() + "(" + d + a.Arg.String() + ", " + a.Arg2.String() + ")"
	}
	return a.Func.String() + "(" + d + a.Arg.String() + ")"
}

// filterText is a call's " FILTER (WHERE …)", empty without one.
func filterText(a AggCall) string {
	if a.Filter == nil {
		return ""
	}
	return " FILTER (WHERE " + a.Filter.String() + ")"
}

func compileKeys(keys []SortKey, lay map[ColID]int) ([]executor.SortKey, error) {
	out := make([]executor.SortKey, len(keys))
	for i, k := range keys {
		x, err := CompileExpr(k.Expr, lay)
		if err != nil {
			return nil, err
		}
		out[i] = executor.SortKey{Expr: x, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return out, nil
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

func scanString(n *Scan, spec index.ScanSpec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Scan %s", n.Name)
	names := make([]string, len(n.Cols))
	for i, c := range n.Cols {
		names[i] = c.Name
	}
	fmt.Fprintf(&b, " cols=[%s]", strings.Join(names, " "))
	if len(n.Filter) > 0 {
		schema := n.Table.Schema()
		parts := make([]string, len(n.Filter))
		for i, p := range n.Filter {
			sup := index.Unsupported
			if i < len(n.Support) {
				sup = n.Support[i]
			}
			parts[i] = fmt.Sprintf("%s (%s)", p.String(schema), sup)
		}
		fmt.Fprintf(&b, " pred=[%s]", strings.Join(parts, ", "))
	}
	if spec.Limit >= 0 {
		fmt.Fprintf(&b, " limit=%d", spec.Limit)
	}
	if k := spec.TopK; k != nil && spec.On(index.TopKPruning) {
		dir := "ASC"
		if k.Desc {
			dir = "DESC"
		}
		fmt.Fprintf(&b, " topk=%s %s (%s)", n.Table.Schema()[k.Col].Name, dir, index.TopKPruning)
	}
	if len(spec.Extremes) > 0 && spec.On(index.TopKPruning) {
		parts := make([]string, len(spec.Extremes))
		for i, k := range spec.Extremes {
			fn := "min"
			if k.Desc {
				fn = "max"
			}
			parts[i] = fn + "(" + n.Table.Schema()[k.Col].Name + ")"
		}
		fmt.Fprintf(&b, " extremes=[%s] (%s)", strings.Join(parts, " "), index.TopKPruning)
	}
	// What SET switched off: every rule (SET pruning = off), and the scan
	// rules switched off one by one.
	if spec.NoPrune {
		b.WriteString(" rules=off")
	}
	if spec.Off != 0 {
		fmt.Fprintf(&b, " off=[%s]", strings.Join(spec.Off.Names(), " "))
	}
	b.WriteString(dictString(n, spec))
	if d, ok := n.Table.(ScanDescriber); ok {
		if s := d.DescribeScan(spec); s != "" {
			b.WriteString(" " + s)
		}
	}
	return b.String()
}

// CompileExpr turns a bound expression into an executable one; lay maps
// column IDs to input positions.
func CompileExpr(e Expr, lay map[ColID]int) (executor.Expr, error) {
	switch e := e.(type) {
	case *ColRef:
		pos, ok := lay[e.Col.ID]
		if !ok {
			return nil, fmt.Errorf("planner: column %s (#%d) not in input", e.Col.Name, e.Col.ID)
		}
		return executor.ColumnExpr(pos, e.Col.Type), nil
	case *Const:
		return executor.ConstExpr(e.Val), nil
	case *Cast:
		arg, err := CompileExpr(e.Arg, lay)
		if err != nil {
			return nil, err
		}
		return executor.NewCast(arg, e.To, e.Try), nil
	case *Case:
		conds := make([]executor.Expr, len(e.Whens))
		thens := make([]executor.Expr, len(e.Whens))
		for i, w := range e.Whens {
			c, err := CompileExpr(w.Cond, lay)
			if err != nil {
				return nil, err
			}
			t, err := CompileExpr(w.Then, lay)
			if err != nil {
				return nil, err
			}
			conds[i], thens[i] = c, t
		}
		var els executor.Expr
		if e.Else != nil {
			x, err := CompileExpr(e.Else, lay)
			if err != nil {
				return nil, err
			}
			els = x
		}
		return executor.NewCase(conds, thens, els, e.T), nil
	case *Lambda:
		return compileLambda(e, lay) // lambda.go
	case *Call:
		args := make([]executor.Expr, len(e.Args))
		for i, a := range e.Args {
			x, err := CompileExpr(a, lay)
			if err != nil {
				return nil, err
			}
			args[i] = x
		}
		return executor.NewCall(e.Fn, args, e.T)
	}
	return nil, fmt.Errorf("planner: cannot compile %T", e)
}
