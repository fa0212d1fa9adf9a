package sql

import (
	"github.com/b2sql/b2sql/sql/ast"
)

// WITH name AS (INSERT | UPDATE | DELETE …): a statement that writes,
// named in the WITH of a SELECT, INSERT, UPDATE or DELETE. As DuckDB
// runs them, each runs exactly once, before the statement and whether
// anything reads it or not, in the order written, each seeing what the
// ones before it did, and the statement sees the tables as they left
// them; the name stands for the rows of its RETURNING (without
// RETURNING: one row of no columns per row written). Such a WITH is
// allowed only at the top of a statement: not in a subquery, a view, a
// recursive WITH or another kind of statement.

// WithWrites is a statement whose WITH names statements that write:
// Writes run in order, then Main, a *Query, *Insert, *Update or *Delete
// whose WITH keeps only the queries.
type WithWrites struct {
	Writes []CTEWrite
	Main   Statement
}

// CTEWrite is one name AS (statement) of the WITH: Stmt is an *Insert,
// *Update or *Delete whose queries see the WITH's queries written before
// it; Columns, when given (name(a, b) AS …), rename the first columns of
// its rows.
type CTEWrite struct {
	Name    string
	Pos     Pos
	Columns []string
	Stmt    Statement
}

func (*WithWrites) statement() {}

// cteWrite reports whether c is a statement that writes.
func cteWrite(c *ast.CTE) bool { return c.DML != nil }

// firstWrite returns w's first CTE that writes (nil: none, or no w).
func firstWrite(w *ast.With) *ast.CTE {
	if w == nil {
		return nil
	}
	for _, c := range w.CTEs {
		if cteWrite(c) {
			return c
		}
	}
	return nil
}

// topWith returns the WITH of a statement that may name writes in it.
func topWith(st ast.Stmt) *ast.With {
	switch s := st.(type) {
	case *ast.Query:
		return s.With
	case *ast.Insert:
		return s.With
	case *ast.Update:
		return s.With
	case *ast.Delete:
		return s.With
	}
	return nil
}

// checkWrites refuses a WITH naming a statement that writes anywhere in
// st but its top (top: st's own WITH, nil when st may have none), and a
// recursive one anywhere.
func (b *stmtBuilder) checkWrites(st ast.Stmt, top *ast.With) error {
	var misplaced, recursive *ast.CTE
	ast.WalkAll(st, func(n ast.Node) {
		w, ok := n.(*ast.With)
		if !ok {
			return
		}
		c := firstWrite(w)
		switch {
		case c == nil:
		case w.Recursive && recursive == nil:
			recursive = c
		case w != top && misplaced == nil:
			misplaced = c
		}
	})
	switch {
	case recursive != nil:
		return b.errAt(recursive.Name, ErrSyntax, "Recursive CTEs with DML statements are not supported")
	case misplaced != nil:
		return b.errAt(misplaced.Name, ErrUnsupported, "WITH clause containing a data-modifying statement must be at the top level")
	}
	return nil
}

// checkViewWrites refuses a view whose query names a statement that
// writes in a WITH.
func (b *stmtBuilder) checkViewWrites(q *ast.Query) error {
	if toks, err := b.tokens(); err != nil || !mayNameWrites(toks) {
		return nil
	}
	var c *ast.CTE
	ast.WalkAll(q, func(n ast.Node) {
		if w, ok := n.(*ast.With); ok && c == nil {
			c = firstWrite(w)
		}
	})
	if c != nil {
		return b.errAt(c.Name, ErrUnsupported, "DML statements (INSERT/UPDATE/DELETE) are not allowed as CTE bodies inside a VIEW")
	}
	return nil
}

// withWrites builds st when its WITH names statements that write (ok
// false: it names none; PREPARE and EXPLAIN parse their statement anew,
// which checks it).
func (b *stmtBuilder) withWrites(st ast.Stmt) (out Statement, ok bool, err error) {
	switch st.(type) {
	case *ast.Prepare, *ast.Explain, *ast.CreateView:
		return nil, false, nil
	}
	if toks, err := b.tokens(); err != nil || !mayNameWrites(toks) {
		return nil, false, nil
	}
	top := topWith(st)
	if err := b.checkWrites(st, top); err != nil {
		return nil, true, err
	}
	if firstWrite(top) == nil {
		return nil, false, nil
	}
	ww := &WithWrites{}
	var queries []*ast.CTE // the WITH's queries so far
	for _, c := range top.CTEs {
		if !cteWrite(c) {
			queries = append(queries, c)
			continue
		}
		sub := &stmtBuilder{src: b.src, toks: b.toks, path: b.path, temps: b.temps}
		s, err := sub.queryOrWrite(withCTEList(c.DML, top, queries))
		if err != nil {
			return nil, true, err
		}
		ww.Writes = append(ww.Writes, CTEWrite{Name: c.Name.Name, Pos: b.pos(c.Name.Start), Columns: nameList(c.Columns), Stmt: s})
	}
	sub := &stmtBuilder{src: b.src, toks: b.toks, path: b.path, temps: b.temps}
	if ww.Main, err = sub.queryOrWrite(withCTEList(st, top, queries)); err != nil {
		return nil, true, err
	}
	var qs []*Query
	for _, w := range ww.Writes {
		qs = append(qs, writeQueries(w.Stmt)...)
	}
	shareParams(append(qs, writeQueries(ww.Main)...)...)
	return ww, true, nil
}

// queryOrWrite builds st, a query, INSERT, UPDATE or DELETE whose WITH
// names no write.
func (b *stmtBuilder) queryOrWrite(st ast.Stmt) (Statement, error) {
	switch s := st.(type) {
	case *ast.Query:
		return b.wholeQuery(s)
	case *ast.Insert:
		return b.insert(s)
	case *ast.Update:
		return b.update(s)
	case *ast.Delete:
		return b.deleteFrom(s)
	}
	return nil, b.errAt(st, ErrUnsupported, "a WITH naming INSERT, UPDATE or DELETE goes before SELECT, INSERT, UPDATE or DELETE") // topWith has no other
}

// mayNameWrites reports whether toks hold AS ( or MATERIALIZED ( before
// INSERT, UPDATE or DELETE: a statement without spends no walk of its
// tree on checkWrites.
func mayNameWrites(toks []token) bool {
	for i := 1; i+1 < len(toks); i++ {
		if !toks[i].isOp("(") || !toks[i-1].is("AS") && !toks[i-1].is("MATERIALIZED") {
			continue
		}
		if n := toks[i+1]; n.is("INSERT") || n.is("UPDATE") || n.is("DELETE") {
			return true
		}
	}
	return false
}

// withCTEList is a copy of st (a query, INSERT, UPDATE or DELETE) whose
// WITH is top with only the CTEs ctes (none: no WITH).
func withCTEList(st ast.Stmt, top *ast.With, ctes []*ast.CTE) ast.Stmt {
	var w *ast.With
	if len(ctes) > 0 {
		c := *top
		c.CTEs = ctes
		w = &c
	}
	switch s := st.(type) {
	case *ast.Query:
		c := *s
		c.With = w
		return &c
	case *ast.Insert:
		c := *s
		c.With = w
		return &c
	case *ast.Update:
		c := *s
		c.With = w
		return &c
	case *ast.Delete:
		c := *s
		c.With = w
		return &c
	}
	return st
}
