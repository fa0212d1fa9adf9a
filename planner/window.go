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
