package planner

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// Window computes window functions over its input; the output is the input
// columns followed by one column per function (Out).
type Window struct {
	Input Node
	Funcs []WindowFunc
	Out   []Column
}

// WindowFunc is one function OVER (PARTITION BY … ORDER BY … frame). Name
// is one of executor.WindowFunc's; Offset is ntile's bucket count or
// lag/lead's offset, Default lag/lead's default, Param quantile_cont's
// fraction or string_agg's separator; Distinct: aggregate(DISTINCT x).
type WindowFunc struct {
	Name      string
	Args      []Expr
	Partition []Expr
	Order     []SortKey
	Frame     Frame
	Type      columnar.Type
	Offset    int64
	Default   columnar.Value
	Param     columnar.Value
	Distinct  bool
	// IgnoreNulls: lag, lead, first_value, last_value or nth_value pass
	// over NULL arguments (IGNORE NULLS).
	IgnoreNulls bool
	// ArgOrder is an aggregate's own ORDER BY (string_agg(x, ',' ORDER BY
	// y) OVER …): the order each frame's rows are aggregated in.
	ArgOrder []SortKey
	// RowArgs: the last Args are parameters computed per row (a frame
	// offset, lag's offset and default, nth_value's position), see
	// executor.WindowRowArgs.
	RowArgs WindowRowArgs
	// Aggregate: the function is GROUP BY's aggregate Agg over each row's
	// frame (executor/window_agg.go): Args are its Arg and Arg2.
	Aggregate bool
	Agg       AggFunc
}

// WindowRowArgs is the executor's type, named here for the binder.
type WindowRowArgs = executor.WindowRowArgs

// Frame bounds the rows a frame function sees. With Rows, Start and End
// are row offsets from the current row (negative = preceding); with
// Groups, offsets in peer groups from the current row's; otherwise
// (RANGE) a bounded end is the current row's last peer and a bounded start
// its first peer, unless StartRange/EndRange: then the bound is the
// current row's ORDER BY key plus StartDist/EndDist (negative = preceding;
// microseconds for DATE and TIMESTAMP keys). Unbounded flags override.
// Exclude (EXCLUDE CURRENT ROW, GROUP, TIES) then removes rows around the
// current one. The layout is executor.WindowFrame's (Build converts).
type Frame struct {
	Rows, Groups                 bool
	Start, End                   int64
	StartUnbounded, EndUnbounded bool
	StartRange, EndRange         bool
	StartDist, EndDist           float64
	Exclude                      FrameExclude
}

// FrameExclude is a frame's EXCLUDE clause (the executor's type, named here
// for the binder).
type FrameExclude = executor.FrameExclude

const (
	ExcludeNoOthers   = executor.ExcludeNoOthers
	ExcludeCurrentRow = executor.ExcludeCurrentRow
	ExcludeGroup      = executor.ExcludeGroup
	ExcludeTies       = executor.ExcludeTies
)

func (n *Window) Schema() []Column {
	return append(append([]Column(nil), n.Input.Schema()...), n.Out...)
}
func (n *Window) Children() []Node { return []Node{n.Input} }
func (n *Window) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}

// WorkTable names the rows of the previous iteration of a recursive CTE;
// WorkScan nodes in its step read them.
type WorkTable struct {
	Cols []Column
}

// WorkScan reads a recursive CTE's work table under fresh column IDs.
type WorkScan struct {
	Work *WorkTable
	Out  []Column
}

func (n *WorkScan) Schema() []Column         { return n.Out }
func (n *WorkScan) Children() []Node         { return nil }
func (n *WorkScan) WithChildren([]Node) Node { return n }

// RecursiveCTE evaluates Base, then Step repeatedly over the rows the last
// iteration produced (read through WorkScans of Work), until an iteration
// adds no rows; with Distinct (UNION) rows already produced are dropped.
// Base and Step have Out's types.
type RecursiveCTE struct {
	Base, Step Node
	Work       *WorkTable
	Distinct   bool
	Out        []Column
}

func (n *RecursiveCTE) Schema() []Column { return n.Out }
func (n *RecursiveCTE) Children() []Node { return []Node{n.Base, n.Step} }
func (n *RecursiveCTE) WithChildren(k []Node) Node {
	c := *n
	c.Base, c.Step = k[0], k[1]
	return &c
}
