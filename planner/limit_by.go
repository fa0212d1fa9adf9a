package planner

// LimitBy is LIMIT and OFFSET given by expressions that are not constants
// (LIMIT (SELECT …), LIMIT nextval('s')), computed once when the query
// runs (executor.LimitBy): Bounds is a plan of one row of two BIGINTs, the
// count (NULL: no limit) and the offset (NULL: none). Like LimitPercent,
// no rule knows it: filters and limits stay above it, its input keeps all
// its columns, and Bounds is planned on its own. With Percent, the count
// is a DOUBLE percent of the rows, LIMIT (SELECT …)%, as LimitPercent's.
type LimitBy struct {
	Input, Bounds Node
	Percent       bool
}

func (n *LimitBy) Schema() []Column { return n.Input.Schema() }
func (n *LimitBy) Children() []Node { return []Node{n.Input, n.Bounds} }
func (n *LimitBy) WithChildren(k []Node) Node {
	c := *n
	c.Input, c.Bounds = k[0], k[1]
	return &c
}
