package planner

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// empty reports whether n provably yields no rows, so that Build can put
// an empty relation in its place and no input under it is opened, read or
// built: LIMIT 0 over a cross join returns at once. It looks only at
// structure (LIMIT 0, a constant false or NULL filter, no VALUES rows, and
// operators that keep no row of an empty input); aggregates are left
// alone, since one without groups answers one row.
func empty(n Node) bool {
	switch n := n.(type) {
	case *Limit:
		return n.Count == 0 || empty(n.Input)
	case *TopK:
		return n.Count == 0 || empty(n.Input)
	case *Values:
		return len(n.Rows) == 0
	case *Filter:
		if c, ok := n.Cond.(*Const); ok && (c.Val.Null || c.Val.Type.ID == columnar.Bool && c.Val.I == 0) {
			return true
		}
		return empty(n.Input)
	case *Project:
		return empty(n.Input)
	case *Sort:
		return empty(n.Input)
	case *Distinct:
		return empty(n.Input)
	case *Join:
		switch n.Kind {
		case JoinInner, JoinCross, JoinSemi:
			return empty(n.Left) || empty(n.Right)
		case JoinRight:
			return empty(n.Right)
		case JoinFull:
			return empty(n.Left) && empty(n.Right)
		}
		return empty(n.Left) // Left, Anti, Mark, Single keep each left row
	}
	return false
}

// buildEmpty is the operator for a provably empty n: no rows, n's types.
func (bd *builder) buildEmpty(n Node) executor.Operator {
	cols := n.Schema()
	types := make([]columnar.Type, len(cols))
	for i, c := range cols {
		types[i] = c.Type
	}
	return bd.wrap(&executor.Values{Out: types, Note: "provably empty"})
}
