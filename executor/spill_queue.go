package executor

import (
	"context"
	"errors"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// spillQueue is a first-in first-out queue of rows whose length the
// memory limit does not bound: it holds its newest rows in memory, in
// batches reserved from the owner's reservation, and when a reservation is
// refused writes every batch it holds to a spill file. Rows come out in
// the order pushed: the files' (oldest first), then the batches held. The
// streamed window (window_stream.go) queues the rows whose results are
// not known yet, and each function's results, in spillQueues.
type spillQueue struct {
	types []columnar.Type
	mem   *memory.Manager
	res   *memory.Reservation

	files []*spill.File      // the oldest rows, written out
	rd    *spill.Reader      // reading files[0], or nil
	rb    *columnar.Batch    // rd's current batch
	held  []*columnar.Batch  // newer rows, in memory; the last one fills
	sizes []int64            // the bytes reserved for each held batch
	front int                // rows of the head batch already taken
	n     int64              // rows queued
	free  []*columnar.Batch  // emptied batches, for reuse
	sel   []int              // scratch: a head batch's remaining rows
	cols  []*columnar.Vector // scratch
}

func newSpillQueue(types []columnar.Type, mem *memory.Manager, res *memory.Reservation) *spillQueue {
	return &spillQueue{types: types, mem: mem, res: res, cols: make([]*columnar.Vector, len(types))}
}

// Len is the number of rows queued.
func (q *spillQueue) Len() int64 { return q.n }

// tail returns the batch that takes the next row, starting a new one (and
// reserving the full one's bytes, spilling if refused) when it is full.
func (q *spillQueue) tail(ctx context.Context) (*columnar.Batch, error) {
	if k := len(q.held); k > 0 && q.held[k-1].Len < columnar.MaxBatch {
		return q.held[k-1], nil
	}
	if k := len(q.held); k > 0 {
		full := q.held[k-1]
		size := chunkBytes(full, full.Cols)
		err := q.res.Grow(size)
		if err == nil {
			q.sizes[k-1] = size
		} else if spillRefusal(err, q.res.Size(), q.mem) || errors.Is(err, memory.ErrSpill) {
			if err := q.spill(ctx); err != nil {
				return nil, err
			}
		} else {
			return nil, err
		}
	}
	var b *columnar.Batch
	if k := len(q.free); k > 0 {
		b, q.free = q.free[k-1], q.free[:k-1]
	} else {
		b = columnar.NewBatch(q.types, columnar.MaxBatch)
	}
	b.Len, b.Sel = 0, nil
	for _, v := range b.Cols {
		v.Reset(columnar.MaxBatch)
	}
	q.held = append(q.held, b)
	q.sizes = append(q.sizes, 0)
	return b, nil
}

// push appends row i of the vectors cols (one per queued column); the
// row's strings are copied.
func (q *spillQueue) push(ctx context.Context, cols []*columnar.Vector, i int) error {
	t, err := q.tail(ctx)
	if err != nil {
		return err
	}
	for c, v := range cols {
		t.Cols[c].CopyRowOwned(t.Len, v, i, columnar.MaxBatch)
	}
	t.Len++
	q.n++
	return nil
}

// pushValues appends one row of values.
func (q *spillQueue) pushValues(ctx context.Context, vals ...columnar.Value) error {
	t, err := q.tail(ctx)
	if err != nil {
		return err
	}
	for c, x := range vals {
		t.Cols[c].SetValue(t.Len, columnar.MaxBatch, x)
		if x.Type.Phys() == columnar.PhysBytes && !x.Null {
			t.Cols[c].CopyRowOwned(t.Len, t.Cols[c], t.Len, columnar.MaxBatch)
		}
	}
	t.Len++
	q.n++
	return nil
}

// spill writes every held batch (the head's rows not yet taken) to one
// file and frees their reservation.
func (q *spillQueue) spill(ctx context.Context) error {
	w, err := q.mem.SpillDir().Create(q.types, q.mem.MaxTemp())
	if err != nil {
		return err
	}
	defer w.Close()
	for k, b := range q.held {
		if k == 0 && q.rd == nil && q.front > 0 {
			q.sel = q.sel[:0]
			for i := q.front; i < b.Len; i++ {
				q.sel = append(q.sel, i)
			}
			b.Sel = q.sel
		}
		err := w.Write(ctx, b)
		b.Sel = nil
		if err != nil {
			return err
		}
	}
	f, err := w.Finish()
	if err != nil {
		return err
	}
	q.res.Spilled(f.Bytes)
	q.files = append(q.files, f)
	if q.rd == nil {
		q.front = 0 // the head is files[0] now
	}
	for k, b := range q.held {
		q.res.Shrink(q.sizes[k])
		q.free = append(q.free[:0], b) // keep one batch for reuse
	}
	q.held, q.sizes = q.held[:0], q.sizes[:0]
	return nil
}

// head returns the batch holding the oldest queued row and its index; the
// queue must not be empty. The batch is valid until the next pop or push.
func (q *spillQueue) head(ctx context.Context) (*columnar.Batch, int, error) {
	if q.rd == nil && len(q.files) > 0 {
		r, err := q.files[0].Open()
		if err != nil {
			return nil, 0, err
		}
		q.rd, q.rb, q.front = r, nil, 0
	}
	if q.rd != nil {
		for q.rb == nil || q.front >= q.rb.Len {
			b, err := q.rd.Next(ctx)
			if err == io.EOF {
				q.rd.Close()
				q.rd, q.rb = nil, nil
				q.files[0].Remove()
				q.files = q.files[1:]
				q.front = 0
				return q.head(ctx)
			}
			if err != nil {
				return nil, 0, err
			}
			q.rb, q.front = b, 0
		}
		return q.rb, q.front, nil
	}
	return q.held[0], q.front, nil
}

// pop takes the oldest row off the queue (after head).
func (q *spillQueue) pop() {
	q.n--
	q.front++
	if q.rd != nil || len(q.held) == 0 || q.front < q.held[0].Len {
		return
	}
	// The head batch is used up: free it, unless it is the one filling.
	if len(q.held) == 1 && q.held[0].Len < columnar.MaxBatch {
		q.held[0].Len, q.front = 0, 0
		for _, v := range q.held[0].Cols {
			v.Reset(columnar.MaxBatch)
		}
		return
	}
	q.res.Shrink(q.sizes[0])
	q.free = append(q.free[:0], q.held[0])
	q.held, q.sizes = q.held[1:], q.sizes[1:]
	q.front = 0
}

// close removes the queue's files and frees what it holds.
func (q *spillQueue) close() {
	if q.rd != nil {
		q.rd.Close()
		q.rd = nil
	}
	removeFiles(q.files)
	q.files = nil
	for _, s := range q.sizes {
		q.res.Shrink(s)
	}
	q.held, q.sizes, q.free, q.n, q.front = nil, nil, nil, 0, 0
}
