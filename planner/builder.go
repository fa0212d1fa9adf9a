package planner

import (
	"os"
	"runtime"

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
	// ForceSpill is debug_force_external: every operator that can spill
	// spills as soon as it holds anything (memory.Manager.ForceSpill).
	ForceSpill bool
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
	m := memory.NewManager(limit, temp, opts.MaxTempSize)
	m.ForceSpill(opts.ForceSpill)
	return m
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

// scanJoinFilter is one filter registered for a scan.
type scanJoinFilter struct {
	pos int // the key column's position in Scan.Cols
	f   *executor.JoinFilter
}
