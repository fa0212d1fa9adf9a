package b2sql

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// Column describes one result column.
type Column struct {
	Name string
	Type columnar.Type
}

// Rows is a streaming result. Call Next until it returns false, then check
// Err; Close stops the query early and releases its resources. A Rows is
// used by one goroutine at a time.
type Rows struct {
	ctx    context.Context
	op     executor.Operator
	cols   []Column
	batch  *columnar.Batch
	row    int // index into the batch's live rows
	cur    []columnar.Value
	err    error
	closed bool
	// static results (EXPLAIN, SHOW, DESCRIBE)
	static [][]columnar.Value
	pos    int
}

func newRows(ctx context.Context, op executor.Operator, names []string) (r *Rows, err error) {
	types := op.Types()
	cols := make([]Column, len(types))
	for i, t := range types {
		name := fmt.Sprintf("col%d", i)
		if i < len(names) {
			name = names[i]
		}
		cols[i] = Column{Name: name, Type: t}
	}
	defer func() {
		if p := recover(); p != nil {
			op.Close()
			r, err = nil, internalError(p)
		}
	}()
	if err := op.Open(ctx); err != nil {
		op.Close()
		return nil, err
	}
	return &Rows{ctx: ctx, op: op, cols: cols, cur: make([]columnar.Value, len(cols))}, nil
}

func valueRows(cols []Column, vals [][]columnar.Value) *Rows {
	return &Rows{cols: cols, static: vals, cur: make([]columnar.Value, len(cols))}
}

func internalError(p any) error {
	return fmt.Errorf("internal error: %v\n%s", p, debug.Stack())
}

// Columns describes the result columns.
func (r *Rows) Columns() []Column { return r.cols }

// Next advances to the next row.
func (r *Rows) Next() (ok bool) {
	if r.closed || r.err != nil {
		return false
	}
	if r.op == nil {
		if r.pos >= len(r.static) {
			return false
		}
		copy(r.cur, r.static[r.pos])
		r.pos++
		return true
	}
	defer func() {
		if p := recover(); p != nil {
			r.err = internalError(p)
			ok = false
			r.Close()
		}
	}()
	for r.batch == nil || r.row >= r.batch.Live() {
		b, err := r.op.Next(r.ctx)
		if err == io.EOF {
			r.Close()
			return false
		}
		if err != nil {
			r.err = err
			r.Close()
			return false
		}
		r.batch, r.row = b, 0
	}
	i := r.batch.Row(r.row)
	r.row++
	for c, v := range r.batch.Cols {
		r.cur[c] = v.Value(i)
	}
	return true
}

// Batch returns the rest of the current batch's live rows as a batch (valid
// until the next call to Next or NextBatch) and advances past them; nil at
// the end. Mixing with Next is allowed.
func (r *Rows) NextBatch() *columnar.Batch {
	if r.closed || r.err != nil || r.op == nil {
		return nil
	}
	if r.batch != nil && r.row < r.batch.Live() && r.row > 0 {
		sel := make([]int, 0, r.batch.Live()-r.row)
		for k := r.row; k < r.batch.Live(); k++ {
			sel = append(sel, r.batch.Row(k))
		}
		r.row = r.batch.Live()
		return &columnar.Batch{Cols: r.batch.Cols, Len: r.batch.Len, Sel: sel}
	}
	b, err := r.op.Next(r.ctx)
	if err != nil {
		if err != io.EOF {
			r.err = err
		}
		r.Close()
		return nil
	}
	r.batch, r.row = b, b.Live()
	return b
}

// Values returns the current row; the slice is reused by the next Next.
func (r *Rows) Values() []columnar.Value { return r.cur }

// Err returns the error that ended iteration, if any.
func (r *Rows) Err() error { return r.err }

// Close stops the query and releases its resources; safe to call twice.
func (r *Rows) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.op != nil {
		return r.op.Close()
	}
	return nil
}
