package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// Bound is a bound query: the logical plan and the output column names as
// a user sees them (Root's schema has the same length and order).
type Bound struct {
	Root  planner.Node
	Names []string
}

// Bind resolves a parsed query against cat into a logical plan:
//
//	Scan (every table column) → Filter (WHERE) → Aggregate → Filter (HAVING)
//	→ Project (select list + hidden ORDER BY columns) → Distinct → Sort
//	→ Limit → Project (drops the hidden columns)
//
// Nodes that a query does not need are left out; a query without FROM
// starts from a one-row Values. ColIDs are unique within the plan; every
// Project and Aggregate output gets a fresh ID. Bind does no optimization
// beyond folding casts of literals. Errors are *Error.
//
// A query with ? markers needs values: see bindWithParams.
func Bind(stmt *Query, cat planner.Catalog) (*Bound, error) {
	return bindWithParams(stmt, cat, nil)
}

// bindWithParams is Bind with values for the query's ? markers, in order
// (params nil: the query has none). A value binds like the literal it
// stands for: a VARCHAR value compared with a DATE column is cast to DATE,
// an integer takes a compared column's type when it fits. Callers check
// the count first; a marker without a value is an error at the marker.
func bindWithParams(stmt *Query, cat planner.Catalog, params []columnar.Value) (*Bound, error) {
	if !stmt.parsed() {
		return nil, &Error{Pos: Pos{1, 1}, Kind: ErrSyntax, Msg: "no query to bind"}
	}
	b := &binder{q: stmt, cat: cat, lits: map[*planner.Const]litInfo{}, expanding: map[string]bool{}, params: params,
		now: new(int64)}
	bd, err := b.bindQuery()
	if err == nil && stmt.table {
		dedupNames(bd.Names)
	}
	return bd, err
}
