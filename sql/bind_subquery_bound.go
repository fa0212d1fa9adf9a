package sql

import "github.com/b2sql/b2sql/planner"

// boundSub is a subquery ready to join: its plan (Right), the value of its
// first column over Right, and the correlation conditions (over outer and
// Right columns).
type boundSub struct {
	right planner.Node
	value planner.Column
	corr  []planner.Expr
	agg   *aggSub // correlated aggregate: value computed above the join
	at    int     // the token the subquery starts at (its SELECT, or EXISTS)
}

// aggSub is a correlated aggregate subquery grouped by its correlation.
type aggSub struct {
	value planner.Expr // over the Aggregate's output; evaluated above the join
	keys  []planner.EquiKey
}
