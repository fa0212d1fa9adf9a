package planner

// reopens reports whether plan n has an operator that opens its input
// again (a recursive CTE runs its step once per iteration). A Gather and
// its shared unit queue run once per query, so such plans keep their build
// sides serial.
func reopens(n Node) bool {
	switch x := n.(type) {
	case *RecursiveCTE:
		return true
	case *CTEScan:
		return reopens(x.CTE.Plan)
	}
	for _, c := range n.Children() {
		if reopens(c) {
			return true
		}
	}
	return false
}
