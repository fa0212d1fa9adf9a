package dml

import (
	"context"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// Outcome is what a write statement returns: the number of rows it
// wrote (N; Counted reports whether that is the statement's result) or,
// with RETURNING, a plan of the rows to return (Returning, named by
// Names), which holds no lock: it reads rows already kept.
type Outcome struct {
	N         int64
	Counted   bool
	Returning *planner.Built
	Names     []string
}

// Run runs a statement that writes: INSERT, REPLACE, DELETE, UPDATE,
// COPY, CREATE TABLE [AS], DROP TABLE and the index statements.
func Run(ctx context.Context, env *Env, stmt sql.Statement, args []columnar.Value) (*Outcome, error) {
	var n int64
	var err error
	switch s := stmt.(type) {
	case *sql.Insert:
		w := newWritten(env, s.Returning, s.Table, args)
		n, err := insert(ctx, env, s, args, w)
		return wrote(n, err, w)
	case *sql.Delete:
		w := newWritten(env, s.Returning, s.Table, args)
		n, err := deleteRows(ctx, env, s, args, w)
		return wrote(n, err, w)
	case *sql.Update:
		w := newWritten(env, s.Returning, s.Table, args)
		n, err := update(ctx, env, s, args, w)
		return wrote(n, err, w)
	case *sql.Copy:
		n, err = copyTo(ctx, env, s, args)
	case *sql.CreateTableAs:
		n, err = createTableAs(ctx, env, s, args)
	case *sql.CreateTable:
		err = createTable(env.Cat, s)
	case *sql.DropTable:
		err = dropTable(env.Cat, s)
	case *sql.CreateIndex:
		err = createIndex(env.Cat, s)
	case *sql.DropIndex:
		err = dropIndex(env.Cat, s)
	case *sql.Reindex:
		err = reindex(env.Cat, s)
	default:
		return nil, fmt.Errorf("unexpected statement %T", stmt)
	}
	if err != nil {
		return nil, err
	}
	switch stmt.(type) {
	case *sql.Copy, *sql.CreateTableAs:
		return &Outcome{N: n, Counted: true}, nil
	}
	return &Outcome{}, nil
}

// wrote is the Outcome of a write of n rows (or of its error err), whose
// rows w kept for RETURNING (w nil: no RETURNING).
func wrote(n int64, err error, w *written) (*Outcome, error) {
	switch {
	case err != nil:
		return nil, err
	case w == nil:
		return &Outcome{N: n, Counted: true}, nil
	}
	return w.returning()
}
