package ctable

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/b2sql/b2sql/columnar"
)

// unitReader reads one scan unit on the goroutine that pulls it. A
// ScanUnits reader is consumed by one executor worker, so the pipeline's
// dispatcher, worker goroutine, channels and fresh batches were pure cost,
// paid per 8192-row unit: on a 20M-row table 2,441 times, about a quarter
// of the CPU of `SELECT sum(price)` (batch allocation, clearing and the
// garbage collection after it, goroutine stacks growing anew). Next asks
// the unit's cursor for the next rows and reads them into the worker's one
// batch: the consumer is done with a batch when it calls Next again.
type unitReader struct {
	schema columnar.Schema
	u      int
	w      *tableWorker
	cur    unitCursor
	out    *outBatch // the batch the last rows call emitted
	// release returns the worker (decoder, scratch, batch) to its pool;
	// done counts the unit once fully produced.
	release func()
	done    func(int)
	err     error
	closed  bool
}

func newUnitReader(schema columnar.Schema, u int, w *tableWorker, release func(), done func(int)) *unitReader {
	return &unitReader{schema: schema, u: u, w: w, cur: w.cursor(u), release: release, done: done}
}

// Schema returns the scanned columns.
func (r *unitReader) Schema() columnar.Schema { return r.schema }

// Next returns the unit's next non-empty batch, valid until the next call.
func (r *unitReader) Next(ctx context.Context) (*columnar.Batch, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.closed {
		return nil, io.EOF
	}
	for {
		if err := ctx.Err(); err != nil {
			r.err = err
			return nil, err
		}
		lo, n, ok := r.cur.next()
		if !ok {
			if r.done != nil {
				r.done(r.u)
				r.done = nil
			}
			return nil, io.EOF
		}
		r.out = nil
		if err := r.rows(lo, n); err != nil {
			r.err = err
			return nil, err
		}
		if r.out != nil && r.out.b.Live() > 0 {
			return &r.out.b, nil
		}
	}
}

// rows reads one batch, turning a panic into an error: the executor
// worker calling Next must not die of a decoder bug.
func (r *unitReader) rows(lo int64, n int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("ctable: internal error in scan unit %d: %v\n%s", r.u, p, debug.Stack())
		}
	}()
	get := func() *outBatch {
		r.w.ob.b.Sel = nil
		r.w.ob.b.Len = 0
		return r.w.ob
	}
	emit := func(b *outBatch) bool {
		r.out = b
		return true
	}
	if !r.w.rows(lo, n, get, emit) {
		return r.w.err
	}
	return nil
}

// Close returns the worker to its pool. Safe to call twice.
func (r *unitReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.release != nil {
		r.release()
	}
	return nil
}
