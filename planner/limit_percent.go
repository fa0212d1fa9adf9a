package planner

// LimitPercent is LIMIT p% [OFFSET n]: after skipping Offset rows it
// keeps floor(total × Percent / 100) of them, total counting every input
// row (DuckDB's rule). The rules leave it alone: no rule knows it, so a
// filter or limit stays above it and its input keeps all its columns.
type LimitPercent struct {
	Input   Node
	Percent float64 // in [0, 100]
	Offset  int64
}

func (n *LimitPercent) Schema() []Column { return n.Input.Schema() }
func (n *LimitPercent) Children() []Node { return []Node{n.Input} }
func (n *LimitPercent) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}
