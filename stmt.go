package b2sql

import (
	"context"
	"sync/atomic"

	"github.com/b2sql/b2sql/sql"
)

// Stmt is a prepared statement: parsed once, bound against the catalog and
// run at each execution with the values of its ? markers. A Stmt is safe
// for concurrent use by many goroutines and may be executed any number of
// times until it or its DB is closed.
//
// Arguments become typed constants of the plan, never SQL text: a string
// argument is a VARCHAR value whatever it contains. Their number must match
// the markers; a mismatch is an *Error of kind ErrParam positioned at the
// marker concerned.
type Stmt struct {
	db      *DB
	src     sql.Source
	stmt    sql.Statement
	nparams int
	closed  atomic.Bool
}

// Prepare parses one statement with ? markers for later execution. Tables
// are resolved at each execution, so a table registered after Prepare is
// seen.
func (db *DB) Prepare(query string) (*Stmt, error) {
	srcs := sql.Split(query)
	if len(srcs) != 1 {
		if len(srcs) == 0 {
			return nil, apiError(&sql.Error{Pos: sql.Pos{Line: 1, Col: 1}, Kind: sql.ErrSyntax, Msg: "empty statement"})
		}
		s := srcs[1]
		return nil, apiError(&sql.Error{Pos: sql.Pos{Line: s.Line, Col: s.Col}, Kind: sql.ErrSyntax, Msg: "Prepare takes one statement"})
	}
	if err := db.acquire(); err != nil {
		return nil, err
	}
	defer db.release()
	st, err := parse(srcs[0])
	if err != nil {
		return nil, apiError(err)
	}
	return &Stmt{db: db, src: srcs[0], stmt: st, nparams: numParams(st)}, nil
}

// NumInput returns the number of ? markers.
func (s *Stmt) NumInput() int { return s.nparams }

// Query runs the statement with args as the values of its markers and
// streams the result, as DB.Query does.
func (s *Stmt) Query(ctx context.Context, args ...any) (*Rows, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	vals, err := paramValues(args)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.runStatement(ctx, s.src, s.stmt, vals)
	return rows, apiError(err)
}

// Exec runs the statement with args, discarding any rows.
func (s *Stmt) Exec(ctx context.Context, args ...any) error {
	_, err := s.exec(ctx, args)
	return err
}

// exec is Exec, also returning the rows written by COPY or CREATE TABLE.
func (s *Stmt) exec(ctx context.Context, args []any) (int64, error) {
	rows, err := s.Query(ctx, args...)
	if err != nil {
		return 0, err
	}
	var n int64
	switch s.stmt.(type) {
	case *sql.Copy, *sql.CreateTableAs, *sql.Insert, *sql.Delete, *sql.Update:
		if len(rows.static) == 1 && len(rows.static[0]) == 1 {
			n = rows.static[0][0].I
		}
	}
	return n, drain(rows)
}

// Close marks the statement closed; later executions fail with ErrClosed.
// Rows already returned are unaffected. Safe to call twice.
func (s *Stmt) Close() error {
	s.closed.Store(true)
	return nil
}
