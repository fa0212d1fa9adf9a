package planner

import (
	"fmt"

	"github.com/b2sql/b2sql/index"
)

// pushJoinFilter moves the conjuncts of a Filter over a Join (and the
// single-sided conjuncts of the join condition itself) to the side they
// read, where the rule pushes them further, into the scans. A conjunct that
// reads both sides of an inner or cross join becomes part of the join
// condition (so a comma join with a WHERE equality becomes a hash join).
// Conjuncts on the NULL-extended side of an outer join stay put: moving them
// would change which rows are extended.
func pushJoinFilter(f *Filter, j *Join) Node {
	var keep []Expr
	conds := []Expr{}
	if f != nil {
		conds = factorOrs(SplitAnd(f.Cond))
	}
	lcols, rcols := colSet(j.Left.Schema()), colSet(j.Right.Schema())
	var toLeft, toRight, onCond []Expr
	inner := j.Kind == JoinInner || j.Kind == JoinCross
	for _, c := range conds {
		switch {
		case within(c, lcols) && j.Kind != JoinRight && j.Kind != JoinFull:
			toLeft = append(toLeft, c)
		case within(c, rcols) && (inner || j.Kind == JoinRight):
			toRight = append(toRight, c)
		case inner && len(ExprCols(c, nil)) > 0 && within(c, unionSet(lcols, rcols)):
			onCond = append(onCond, c)
		default:
			keep = append(keep, c)
			continue
		}
		// An OR over both sides stays whole, but implies a filter on
		// each side it constrains in every branch (pushdown_join_or.go).
		if inner && !within(c, lcols) && !within(c, rcols) {
			if l := orImplied(c, lcols); l != nil {
				toLeft = append(toLeft, l)
			}
			if r := orImplied(c, rcols); r != nil {
				toRight = append(toRight, r)
			}
		}
	}
	// The join's own residual: a conjunct reading one side only filters
	// that side's candidates, unless that side is preserved (outer).
	if j.Cond != nil {
		for _, c := range SplitAnd(j.Cond) {
			switch {
			case within(c, lcols) && (inner || j.Kind == JoinRight):
				toLeft = append(toLeft, c)
			case within(c, rcols) && (inner || j.Kind == JoinLeft || j.Kind == JoinSemi || j.Kind == JoinAnti):
				toRight = append(toRight, c)
			default:
				onCond = append(onCond, c)
			}
		}
	}
	if len(toLeft) == 0 && len(toRight) == 0 && len(onCond) == 0 || (f == nil && len(toLeft) == 0 && len(toRight) == 0) {
		if f == nil {
			return j
		}
		return &Filter{Input: j, Cond: f.Cond}
	}
	c := *j
	if len(toLeft) > 0 {
		c.Left = pushHere(addFilter(j.Left, toLeft))
	}
	if len(toRight) > 0 {
		c.Right = pushHere(addFilter(j.Right, toRight))
	}
	if len(onCond) > 0 {
		keys, rest := SplitJoinCond(JoinAnd(onCond), j.Left.Schema(), j.Right.Schema())
		c.EquiKeys = append(append([]EquiKey(nil), j.EquiKeys...), keys...)
		c.Cond = rest
	} else {
		c.Cond = nil
	}
	if c.Kind == JoinCross && (len(c.EquiKeys) > 0 || c.Cond != nil) {
		c.Kind = JoinInner
	}
	if len(keep) == 0 {
		return &c
	}
	return &Filter{Input: &c, Cond: JoinAnd(keep)}
}

func unionSet(a, b map[ColID]bool) map[ColID]bool {
	out := copySet(a)
	for k := range b {
		out[k] = true
	}
	return out
}

// addFilter puts conds over n, merging with a Filter already there.
func addFilter(n Node, conds []Expr) *Filter {
	if f, ok := n.(*Filter); ok {
		return &Filter{Input: f.Input, Cond: JoinAnd(append(SplitAnd(f.Cond), conds...))}
	}
	return &Filter{Input: n, Cond: JoinAnd(conds)}
}

// offered reports whether the scan was already offered p (a filter pushed
// twice, once from above a join and once again after it moved), and what
// the table answered.
func offered(s *Scan, p index.Pred) (index.Support, bool) {
	key := fmt.Sprint(p)
	for i, q := range s.Filter {
		if fmt.Sprint(q) == key && i < len(s.Support) {
			return s.Support[i], true
		}
	}
	return 0, false
}
