package sql

import (
	"maps"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// A FROM element while the FROM clause binds, and the scope it puts names
// in; bind_join.go joins them.

// fromItem is a bound FROM element: its plan and the columns it puts in
// scope (Table is the qualifier). Hidden columns (the duplicates a USING or
// NATURAL join merges) are reachable only qualified and left out of *.
type fromItem struct {
	node   planner.Node
	cols   []planner.Column
	quals  []string
	hidden map[planner.ColID]hide
}

// cloneHidden copies a FROM element's hidden columns (never nil).
func cloneHidden(m map[planner.ColID]hide) map[planner.ColID]hide {
	out := make(map[planner.ColID]hide, len(m))
	maps.Copy(out, m)
	return out
}

// joinCond is a join's ON condition or USING list (neither: a cross
// join, or a natural one), and the syntax of the join's right side,
// which errors about the join point at (its alias, else its start).
type joinCond struct {
	using []*ast.Ident
	on    func(c ectx) (planner.Expr, error) // binds ON as a boolean; nil: none
	// onSubquery: ON holds a subquery (bind_join_subquery.go).
	onSubquery bool
	right      ast.TableRef
}

type savedScope struct {
	scope  []planner.Column
	quals  []string
	hidden map[planner.ColID]hide
}

func (b *binder) saveScope() savedScope { return savedScope{b.scope, b.quals, b.hidden} }

func (b *binder) restoreScope(s savedScope) {
	b.scope, b.quals, b.hidden = s.scope, s.quals, s.hidden
}
