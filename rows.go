package b2sql

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/planner"
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
	opened bool
	built  *planner.Built
	// static results (EXPLAIN, SHOW, DESCRIBE)
	static [][]columnar.Value
	pos    int
}

func newRows(ctx context.Context, op executor.Operator, names []string) (*Rows, error) {
	types := op.Types()
	cols := make([]Column, len(types))
	for i, t := range types {
		name := fmt.Sprintf("col%d", i)
		if i < len(names) {
			name = names[i]
		}
		cols[i] = Column{Name: name, Type: t}
	}
	// The plan is opened by the first Next, not here: blocking operators do
	// their work in Open, and the caller should already hold the Rows to
	// watch Progress or Close it from another goroutine.
	return &Rows{ctx: ctx, op: op, cols: cols, cur: make([]columnar.Value, len(cols))}, nil
}

// open starts the plan on first use.
func (r *Rows) open() error {
	if r.opened {
		return nil
	}
	r.opened = true
	return r.op.Open(r.ctx)
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
	if err := r.open(); err != nil {
		r.err = err
		r.Close()
		return false
	}
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
	if err := r.open(); err != nil {
		r.err = err
		r.Close()
		return nil
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

// Progress is a snapshot of how far a query's scans have got.
type Progress struct {
	Units        int64 // row groups / chunks the scans will read
	UnitsSkipped int64 // skipped by statistics or indexes
	UnitsDone    int64 // finished
	Rows         int64 // rows decoded so far
	Bytes        int64 // bytes read from storage so far
}

// Fraction is the share of units finished, in [0, 1].
func (p Progress) Fraction() float64 {
	todo := p.Units - p.UnitsSkipped
	if todo <= 0 {
		return 0
	}
	return min(1, float64(p.UnitsDone)/float64(todo))
}

// Progress reports how far the query has got; safe to call from another
// goroutine while Next runs.
func (r *Rows) Progress() Progress {
	if r.built == nil {
		return Progress{}
	}
	t, s, d, rows, b := r.built.Progress()
	return Progress{Units: t, UnitsSkipped: s, UnitsDone: d, Rows: rows, Bytes: b}
}
