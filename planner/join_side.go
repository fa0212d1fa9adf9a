package planner

// buildsLeft reports whether a semi or anti join is better run with its
// preserved (left) side built: the left is estimated smaller, so the hash
// table is small and the big side streams through it. NULL-aware (NOT IN)
// and mark joins keep their orientation.
func buildsLeft(n *Join) bool {
	return (n.Kind == JoinSemi || n.Kind == JoinAnti) && !n.NullAware && len(n.EquiKeys) > 0 && smaller(n.Left, n.Right)
}

// smaller reports whether a is estimated (join_estimate.go) to have fewer
// rows than b; false when either has no estimate.
func smaller(a, b Node) bool {
	ea, oka := estimate(a)
	eb, okb := estimate(b)
	return oka && okb && ea.rows < eb.rows
}
