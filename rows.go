package b2sql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/internal/engine"
	"github.com/b2sql/b2sql/planner"
)

// Column describes one result column: its name as the query spells it and
// its SQL type (Type.String() is the DuckDB spelling: BIGINT, VARCHAR, …).
type Column struct {
	Name string
	Type columnar.Type
}

// errRowsClosed is the cancellation cause of a Rows closed by its user.
var errRowsClosed = errors.New("b2sql: rows closed")

// Rows is a streaming result. Call Next until it returns false, then check
// Err; Close stops the query early and releases its resources.
//
// Next, NextBatch, Values, Scan and RecordReader are used by one goroutine
// at a time. Close and Progress may be called from any goroutine, also
// while Next runs: Close then cancels the scan, waits for Next to return and
// releases everything.
//
// A Rows releases its resources when Next returns false or Close is called;
// always do one of the two. An abandoned Rows keeps its files open, even
// after DB.Close (which cancels it but cannot release what it still holds).
type Rows struct {
	mu     sync.Mutex // held by Next, NextBatch and Close
	ctx    context.Context
	parent context.Context // the caller's, to tell its cancellation from Close's
	cancel context.CancelCauseFunc
	cat    *catalog.Catalog // non-nil while tracked (Catalog.Track)
	op     executor.Operator
	cols   []Column
	batch  *columnar.Batch
	row    int // index into the batch's live rows
	cur    []columnar.Value
	err    error
	closed bool
	opened bool
	built  *planner.Built
	zone   string // the session's time zone, for TIMESTAMP WITH TIME ZONE cells
	// failed hears an error the plan ended with (engine.Result.Fail).
	failed func(error)
	// static results (EXPLAIN, SHOW, DESCRIBE)
	static [][]columnar.Value
	pos    int
}

// newRows returns the Rows of a statement's result: a plan to stream,
// tracked by the catalog so that DB.Close cancels it, or rows at hand.
func newRows(ctx context.Context, cat *catalog.Catalog, res *engine.Result) (*Rows, error) {
	if res.Plan == nil {
		cols := make([]Column, len(res.Cols))
		for i, c := range res.Cols {
			cols[i] = Column(c)
		}
		return &Rows{cols: cols, static: res.Rows, cur: make([]columnar.Value, len(cols))}, nil
	}
	built := res.Plan
	op := built.Root
	types := op.Types()
	cols := make([]Column, len(types))
	for i, t := range types {
		name := fmt.Sprintf("col%d", i)
		if i < len(res.Names) {
			name = res.Names[i]
		}
		cols[i] = Column{Name: name, Type: t}
	}
	// The plan is opened by the first Next, not here: blocking operators do
	// their work in Open, and the caller should already hold the Rows to
	// watch Progress or Close it from another goroutine.
	rctx, cancel := context.WithCancelCause(ctx)
	r := &Rows{ctx: rctx, parent: ctx, cancel: cancel, op: op, cols: cols, cur: make([]columnar.Value, len(cols)), built: built, zone: res.Zone, failed: res.Fail}
	if err := cat.Track(r, cancel); err != nil {
		cancel(err)
		op.Close()
		return nil, err
	}
	r.cat = cat
	return r, nil
}

// drain reads r to the end and closes it.
func drain(r *Rows) error {
	for r.Next() {
	}
	err := r.Err()
	if cerr := r.Close(); err == nil {
		err = cerr
	}
	return err
}

// open starts the plan on first use.
func (r *Rows) open() error {
	if r.opened {
		return nil
	}
	r.opened = true
	return r.op.Open(r.ctx)
}

// Columns describes the result columns; it is valid before the first Next.
func (r *Rows) Columns() []Column { return r.cols }

// Next advances to the next row; false at the end, after an error (see
// Err) or after Close.
func (r *Rows) Next() (ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
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
	defer r.recoverPanic(&ok)
	for r.batch == nil || r.row >= r.batch.Live() {
		if !r.pull() {
			return false
		}
	}
	i := r.batch.Row(r.row)
	r.row++
	for c, v := range r.batch.Cols {
		r.cur[c] = v.Value(i)
		if v.Type.ID == columnar.TimestampTZ {
			r.cur[c].S = r.zone // shown in the session's zone
		}
	}
	return true
}

// pull fetches the next batch into r.batch; false at the end or on error,
// the Rows then closed. r.mu is held.
func (r *Rows) pull() bool {
	if err := r.open(); err != nil {
		r.fail(err)
		return false
	}
	b, err := r.op.Next(r.ctx)
	if err == io.EOF {
		r.fail(nil)
		return false
	}
	if err != nil {
		r.fail(err)
		return false
	}
	r.batch, r.row = b, 0
	return true
}

// fail ends the stream with err (nil at a normal end), translating a
// cancellation into the error its origin calls for: the caller's ctx.Err(),
// ErrClosed when the DB closed, none when Close was called.
func (r *Rows) fail(err error) {
	if r.ctx.Err() != nil {
		switch cause := context.Cause(r.ctx); {
		case r.parent.Err() != nil:
			err = r.parent.Err()
		case cause == errRowsClosed:
			err = nil
		default:
			err = cause
		}
	}
	r.err = err
	if err != nil && r.failed != nil {
		r.failed(err)
	}
	r.closeLocked()
}

// recoverPanic turns a panic in the executor into an internal error.
func (r *Rows) recoverPanic(ok *bool) {
	if p := recover(); p != nil {
		r.err = engine.InternalError(p)
		if r.failed != nil {
			r.failed(r.err)
		}
		*ok = false
		r.closeLocked()
	}
}

// NextBatch returns the rest of the current batch's live rows as a batch
// (valid until the next call to Next or NextBatch) and advances past them;
// nil at the end. Mixing with Next is allowed.
func (r *Rows) NextBatch() (b *columnar.Batch) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.err != nil || r.op == nil {
		return nil
	}
	var ok bool
	defer func() {
		if !ok {
			b = nil
		}
	}()
	defer r.recoverPanic(&ok)
	if r.batch != nil && r.row < r.batch.Live() && r.row > 0 {
		sel := make([]int, 0, r.batch.Live()-r.row)
		for k := r.row; k < r.batch.Live(); k++ {
			sel = append(sel, r.batch.Row(k))
		}
		r.row = r.batch.Live()
		ok = true
		return &columnar.Batch{Cols: r.batch.Cols, Len: r.batch.Len, Sel: sel}
	}
	if !r.pull() {
		return nil
	}
	r.row = r.batch.Live()
	ok = true
	return r.batch
}

// Values returns the current row; the slice is reused by the next Next.
func (r *Rows) Values() []columnar.Value { return r.cur }

// Err returns the error that ended iteration, if any: ctx.Err() when the
// caller's context was cancelled, ErrClosed when the DB was closed, nil at
// a normal end or after Close.
func (r *Rows) Err() error { return r.err }

// Close stops the query and releases its resources; safe to call twice and
// from another goroutine than the one calling Next.
func (r *Rows) Close() error {
	if r.cancel != nil {
		r.cancel(errRowsClosed) // a Next blocked in a scan returns promptly
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closeLocked()
}

func (r *Rows) closeLocked() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.batch = nil
	var err error
	if r.op != nil {
		err = r.op.Close() // safe after a failed or missing Open

	}
	if r.cancel != nil {
		r.cancel(errRowsClosed)
	}
	if r.cat != nil {
		r.cat.Untrack(r)
		r.cat = nil
	}
	return err
}

// Progress is a snapshot of how far a query's scans have got.
type Progress struct {
	Units        int64 // row groups / chunks the scans will read
	UnitsSkipped int64 // skipped by statistics or indexes
	UnitsDone    int64 // finished
	Rows         int64 // rows decoded so far
	Bytes        int64 // bytes read from storage so far
	// Requests and Fetched count what the query's remote tables (S3,
	// HTTP) asked their servers for and received, since they were opened.
	Requests int64
	Fetched  int64
	// Files, FilesSkipped and FilesDone count the files of many-file
	// scans (lists, globs, hive datasets): all, skipped unopened by
	// predicates on partitions, and read to the end.
	Files, FilesSkipped, FilesDone int64
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
	reqs, fetched := r.built.Fetched()
	ft, fs, fd := r.built.FileProgress()
	return Progress{Units: t, UnitsSkipped: s, UnitsDone: d, Rows: rows, Bytes: b, Requests: reqs, Fetched: fetched,
		Files: ft, FilesSkipped: fs, FilesDone: fd}
}
