package planner

// Window computes window functions over its input; the output is the input
// columns followed by one column per function (Out).
type Window struct {
	Input Node
	Funcs []WindowFunc
	Out   []Column
}

// WindowFunc is one function OVER (PARTITION BY … ORDER BY … frame).
type WindowFunc struct {
	Name      string // row_number, rank, dense_rank, ntile, lag, lead, first_value, last_value, or an aggregate
	Args      []Expr
	Partition []Expr
	Order     []SortKey
	Frame     Frame
}

// FrameMode is how a frame is measured.
type FrameMode uint8

const (
	FrameDefault FrameMode = iota // RANGE UNBOUNDED PRECEDING .. CURRENT ROW with ORDER BY, whole partition without
	FrameRows
	FrameRange
)

// Frame bounds, as offsets from the current row: Start/End are the number
// of rows (ROWS) before (negative) or after; Unbounded flags override.
type Frame struct {
	Mode                         FrameMode
	Start, End                   int64
	StartUnbounded, EndUnbounded bool
}

func (n *Window) Schema() []Column {
	return append(append([]Column(nil), n.Input.Schema()...), n.Out...)
}
func (n *Window) Children() []Node { return []Node{n.Input} }

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

func (n *WorkScan) Schema() []Column { return n.Out }
func (n *WorkScan) Children() []Node { return nil }

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
