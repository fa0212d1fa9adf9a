package dml

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// Env is what the statements need from the session running them.
type Env struct {
	Cat *catalog.Catalog
	// Bind binds q against cat (nil: Cat) with the parameter values args.
	Bind func(q *sql.Query, cat planner.ViewCatalog, args []columnar.Value) (*sql.Bound, error)
	// Build optimizes and builds a bound plan with the session's settings.
	Build func(root planner.Node, analyze bool) (*planner.Built, error)
	// Zone is the session's time zone: COPY writes TIMESTAMP WITH TIME
	// ZONE values to text formats in it (copy_zone.go).
	Zone string
}

// plan binds and builds q against the catalog.
func (env *Env) plan(q *sql.Query, args []columnar.Value) (*planner.Built, []string, error) {
	bound, err := env.Bind(q, nil, args)
	if err != nil {
		return nil, nil, err
	}
	built, err := env.Build(bound.Root, false)
	if err != nil {
		return nil, nil, err
	}
	return built, bound.Names, nil
}

// InternalError turns a recovered panic into an error with its stack.
func InternalError(p any) error {
	return fmt.Errorf("internal error: %v\n%s", p, debug.Stack())
}

// runMark is the context key of Running's flag.
type runMark struct{}

// Running returns ctx marked so that Drive records in the flag it returns
// whether a plan started to run under it: a statement's error after that
// is an error of running (it aborts a transaction, internal/engine).
func Running(ctx context.Context) (context.Context, *atomic.Bool) {
	f := new(atomic.Bool)
	return context.WithValue(ctx, runMark{}, f), f
}

// Drive opens a built plan and hands each batch to fn, then closes it.
// The run is tracked by the catalog, so that closing the database
// cancels it (it then ends with catalog.ErrClosed); a cancelled ctx ends
// it with ctx.Err().
func Drive(ctx context.Context, cat *catalog.Catalog, built *planner.Built, fn func(*columnar.Batch) error) (err error) {
	op := built.Root
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	key := new(byte)
	if err := cat.Track(key, cancel); err != nil {
		op.Close()
		return err
	}
	defer cat.Untrack(key)
	err = func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = InternalError(p)
			}
		}()
		defer func() {
			if cerr := op.Close(); err == nil {
				err = cerr
			}
		}()
		if f, ok := ctx.Value(runMark{}).(*atomic.Bool); ok {
			f.Store(true)
		}
		if err := op.Open(rctx); err != nil {
			return err
		}
		for {
			b, err := op.Next(rctx)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if b.Live() == 0 {
				continue
			}
			if err := fn(b); err != nil {
				return err
			}
		}
	}()
	if err != nil && rctx.Err() != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return context.Cause(rctx)
	}
	return err
}

// Drain runs a built plan to its end, dropping its rows (EXPLAIN ANALYZE).
func Drain(ctx context.Context, cat *catalog.Catalog, built *planner.Built) error {
	return Drive(ctx, cat, built, func(*columnar.Batch) error { return nil })
}

// schemaOf is the schema of a plan's result: its column names and types,
// every column nullable.
func schemaOf(built *planner.Built, names []string) columnar.Schema {
	types := built.Root.Types()
	schema := make(columnar.Schema, len(types))
	for i, t := range types {
		name := fmt.Sprintf("col%d", i)
		if i < len(names) {
			name = names[i]
		}
		schema[i] = columnar.Field{Name: name, Type: t, Nullable: true}
	}
	return schema
}
