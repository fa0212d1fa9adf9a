package ctable

import (
	"context"
	"io"
	"iter"

	"github.com/b2sql/b2sql/columnar"
)

// unitReader reads one scan unit on the goroutine that pulls it. A
// ScanUnits reader is consumed by one executor worker, so the pipeline's
// dispatcher, worker goroutine, channels and fresh batches were pure cost,
// paid per 8192-row unit: on a 20M-row table 2,441 times, about a quarter
// of the CPU of `SELECT sum(price)` (batch allocation, clearing and the
// garbage collection after it). The unit function runs as a coroutine
// (iter.Pull): each emit hands its batch to Next and waits for the next
// call, so one batch, owned by the worker, serves the whole unit.
type unitReader struct {
	schema columnar.Schema
	next   func() (item, bool)
	stop   func()
	// release returns the worker (decoder, scratch, batch) to its pool.
	release func()
	err     error
	closed  bool
}

// newUnitReader starts reading unit u with fn; ob is the batch every emit
// of the unit uses (the consumer is done with a batch when it calls Next
// again); done, if non-nil, counts the unit once it is fully produced.
func newUnitReader(schema columnar.Schema, u int, fn unitFunc, ob *outBatch, release func(), done func(int)) *unitReader {
	seq := func(yield func(item) bool) {
		get := func() *outBatch {
			ob.b.Sel = nil
			ob.b.Len = 0
			return ob
		}
		emit := func(b *outBatch) bool { return yield(item{b: b}) }
		err := runUnit(fn, u, get, emit)
		if err != nil {
			yield(item{err: err})
			return
		}
		if done != nil {
			done(u)
		}
	}
	r := &unitReader{schema: schema, release: release}
	r.next, r.stop = iter.Pull(iter.Seq[item](seq))
	return r
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
		it, ok := r.next()
		if !ok {
			return nil, io.EOF
		}
		if it.err != nil {
			r.err = it.err
			return nil, it.err
		}
		if it.b.b.Live() > 0 {
			return &it.b.b, nil
		}
	}
}

// Close stops the unit and returns the worker. Safe to call twice.
func (r *unitReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.stop()
	if r.release != nil {
		r.release()
	}
	return nil
}
