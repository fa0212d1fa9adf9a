package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/sql/ast"
)

// ConflictUpdate is INSERT … ON CONFLICT … DO UPDATE SET col = expr, …
// [WHERE cond]: a proposed row whose key is already in the table changes
// that row instead. Query is
//
//	SELECT expr, … [, cond], t.rowid FROM t [AS x], excluded
//	WHERE t.rowid = excluded.rowid
//
// made of the statement's nodes: internal/dml binds it with t standing for
// the existing rows that conflict and excluded for the rows proposed for
// them, both numbered by rowid in the same order, so that each output row
// holds one conflict's new values (as UPDATE's query does), whether it
// changes (HasWhere), and which conflict it is.
type ConflictUpdate struct {
	Sets     []string
	SetsPos  []Pos
	Query    *Query
	HasWhere bool
}

// conflictUpdate builds s's DO UPDATE.
func (b *stmtBuilder) conflictUpdate(s *ast.Insert) (*ConflictUpdate, error) {
	oc := s.OnConflict
	_, _, target, err := b.target(s.Table, s.Alias)
	if err != nil {
		return nil, err
	}
	qual := s.Table.Last()
	if s.Alias != nil {
		qual = s.Alias
	}
	// The synthesized names sit on the ON CONFLICT clause, which an error
	// about them (none is expected) then points at.
	at := oc.Span
	rowid := func(table string) *ast.ColumnRef {
		return &ast.ColumnRef{Span: at, Name: ast.Name{{Span: at, Name: table}, {Span: at, Name: "rowid"}}}
	}
	excluded := &ast.Table{Span: at, Name: ast.Name{{Span: at, Name: "excluded"}}}
	cu := &ConflictUpdate{}
	var items []ast.Expr
	for _, a := range oc.Set {
		col := a.Column.Last()
		if len(a.Column) > 1 {
			return nil, b.errAt(a.Column[0], ErrUnsupported, fmt.Sprintf("SET names a column of %q: write %q alone", qual.Name, col.Name))
		}
		if _, ok := a.Value.(*ast.Default); ok {
			return nil, b.errAt(a.Value, ErrUnsupported, "SET column = DEFAULT is not supported in ON CONFLICT … DO UPDATE")
		}
		cu.Sets = append(cu.Sets, col.Name)
		cu.SetsPos = append(cu.SetsPos, b.pos(col.Start))
		items = append(items, a.Value)
	}
	if oc.Where != nil {
		cu.HasWhere = true
		items = append(items, condition(oc.Where))
	}
	items = append(items, rowid(qual.Name))
	join := &ast.Binary{Span: at, Op: "=", L: rowid(qual.Name), R: rowid("excluded")}
	if cu.Query, err = b.selectFrom(s.Span, items, []ast.TableRef{target, excluded}, join); err != nil {
		return nil, err
	}
	cu.Query.qualifiedOnly = "excluded"
	return cu, nil
}
