package planner

// mapNewChildren is mapChildren for the nodes added after the first
// release (set operations, windows, recursive CTEs); unknown nodes are
// returned unchanged.
func mapNewChildren(n Node, f func(Node) Node) Node {
	switch n := n.(type) {
	case *SetOp:
		c := *n
		c.Left, c.Right = f(n.Left), f(n.Right)
		return &c
	case *RecursiveCTE:
		c := *n
		c.Base, c.Step = f(n.Base), f(n.Step)
		return &c
	case *Window:
		c := *n
		c.Input = f(n.Input)
		return &c
	}
	return n
}
