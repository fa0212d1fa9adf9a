package b2sql

import (
	"context"
	"sync/atomic"

	"github.com/b2sql/b2sql/internal/engine"
	"github.com/b2sql/b2sql/sql"
)

// Stmt is a prepared statement: parsed once, bound against the catalog and
// run at each execution with the values of its parameters. A Stmt is safe
// for concurrent use by many goroutines and may be executed any number of
// times until it or its DB is closed.
//
// Arguments become typed constants of the plan, never SQL text: a string
// argument is a VARCHAR value whatever it contains. Their number must match
// the markers; a mismatch is an *Error of kind ErrParam positioned at the
// marker concerned.
type Stmt struct {
	db      *DB
	sess    *engine.Session
	src     sql.Source
	stmt    sql.Statement
	nparams int
	closed  atomic.Bool
}

// Prepare parses one statement with parameters (?, $n, $name) for later execution. Tables
// are resolved at each execution, so a table registered after Prepare is
// seen.
func (db *DB) Prepare(query string) (*Stmt, error) { return db.prepare(db.sess, query) }

func (db *DB) prepare(sess *engine.Session, query string) (*Stmt, error) {
	src, err := oneStatement(query, "Prepare takes one statement")
	if err != nil {
		return nil, err
	}
	if db.cat.Closed() {
		return nil, ErrClosed
	}
	st, err := sess.Parse(src)
	if err != nil {
		return nil, err
	}
	return &Stmt{db: db, sess: sess, src: src, stmt: st, nparams: engine.NumParams(st)}, nil
}

// NumInput returns the number of values the statement takes: its
// highest $n (or count of ?), or its count of distinct $name markers.
func (s *Stmt) NumInput() int { return s.nparams }

// Query runs the statement with args as the values of its markers and
// streams the result, as DB.Query does.
func (s *Stmt) Query(ctx context.Context, args ...any) (*Rows, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	vals, names, err := paramValues(args)
	if err != nil {
		return nil, err
	}
	return s.db.run(ctx, s.sess, s.src, s.stmt, vals, names)
}

// Exec runs the statement with args, discarding any rows.
func (s *Stmt) Exec(ctx context.Context, args ...any) error {
	_, err := s.exec(ctx, args)
	return err
}

// exec is Exec, also returning the rows written by COPY or CREATE TABLE.
func (s *Stmt) exec(ctx context.Context, args []any) (int64, error) {
	if s.closed.Load() {
		return 0, ErrClosed
	}
	vals, names, err := paramValues(args)
	if err != nil {
		return 0, err
	}
	if vals, err = argsFor(s.stmt, vals, names); err != nil {
		return 0, sql.WithEnd(s.src, err)
	}
	res, err := s.sess.Run(ctx, s.src, s.stmt, vals)
	if err != nil {
		return 0, err
	}
	rows, err := newRows(ctx, s.db.cat, res)
	if err != nil {
		return 0, err
	}
	return res.Written(s.stmt), drain(rows)
}

// Close marks the statement closed; later executions fail with ErrClosed.
// Rows already returned are unaffected. Safe to call twice.
func (s *Stmt) Close() error {
	s.closed.Store(true)
	return nil
}
