package ctable

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/b2sql/b2sql/columnar"
)

// batchRows bounds the rows of one output batch.
const batchRows = 8192

// outBatch is a batch plus the storage it owns, recycled between workers
// and the consumer.
type outBatch struct {
	b      columnar.Batch
	arenas [][]byte       // per column: byte payloads
	sel    []int          // storage for b.Sel
	aux    [][]byte       // per column: scratch owned by the batch (utf8 blobs, varlen batches)
	owned  []ownedPayload // per column: storage of a vector aliasing a decoded block (blockview.go)
}

// item is what a worker hands the consumer: a batch or an error.
type item struct {
	b   *outBatch
	err error
}

// task is one unit of work with the channel its batches go to (ordered mode).
type task struct {
	unit int
	out  chan item
}

// unitFunc produces the batches of one unit: it takes batches from get,
// fills them and hands them to emit, stopping when emit returns false (the
// scan was cancelled). One unitFunc per worker goroutine: it may keep
// scratch state.
type unitFunc func(unit int, get func() *outBatch, emit func(*outBatch) bool) error

// pipeline is the columnar.Reader both table kinds return: a dispatcher
// hands units (chunks or row ranges) to up to Threads workers. In ordered
// mode (Threads == 1 or a LIMIT) each unit gets its own channel and the
// consumer drains them in order, at most `window` units ahead; otherwise
// workers share one channel and batches arrive in any order. This is the
// scheme of formats/parquet's scanner, shared here by ArrayTable and Table.
type pipeline struct {
	schema columnar.Schema
	types  []columnar.Type

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	ordered bool
	order   chan *task
	shared  chan item
	cur     *task
	prev    *outBatch
	free    chan *outBatch

	done     func(unit int)
	limit    int64
	produced int64
	err      error
	closed   bool
}

// startPipeline runs units (in this order) on threads workers, each with its
// own unitFunc from newWorker; release, if non-nil, is called when a worker
// ends. done, if non-nil, is called after each unit is fully produced (for
// ScanStats.UnitsDone). Batches come in unit order with one thread, a
// limit, or ordered (ScanSpec.Ordered); else as the workers finish them.
func startPipeline(ctx context.Context, schema columnar.Schema, units []int, threads int, limit int64, ordered bool,
	newWorker func() (unitFunc, func()), done func(unit int)) *pipeline {
	p := &pipeline{schema: schema, limit: limit, done: done}
	for _, f := range schema {
		p.types = append(p.types, f.Type)
	}
	if p.limit < -1 {
		p.limit = -1
	}
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	threads = max(1, min(threads, len(units)))
	p.ordered = threads == 1 || p.limit >= 0 || ordered
	p.ctx, p.cancel = context.WithCancel(ctx)
	window := 2 * threads
	p.free = make(chan *outBatch, 4*threads+4)
	work := make(chan *task, window)
	if p.ordered {
		p.order = make(chan *task, window)
	} else {
		p.shared = make(chan item, 2*threads)
	}
	p.wg.Add(1)
	go p.dispatch(units, work)
	var workers sync.WaitGroup
	for range threads {
		p.wg.Add(1)
		workers.Add(1)
		go func() {
			defer p.wg.Done()
			defer workers.Done()
			fn, release := newWorker()
			if release != nil {
				defer release()
			}
			p.work(fn, work)
		}()
	}
	if !p.ordered {
		go func() {
			workers.Wait()
			close(p.shared)
		}()
	}
	return p
}

func (p *pipeline) dispatch(units []int, work chan<- *task) {
	defer p.wg.Done()
	defer close(work)
	if p.ordered {
		defer close(p.order)
	}
	for _, u := range units {
		tk := &task{unit: u}
		if p.ordered {
			// A worker blocks only on its own unit's channel, which the
			// consumer drains in dispatch order: no deadlock, and the
			// window bounds how far decoding runs ahead.
			tk.out = make(chan item, 4)
			select {
			case p.order <- tk:
			case <-p.ctx.Done():
				return
			}
		}
		select {
		case work <- tk:
		case <-p.ctx.Done():
			if p.ordered {
				// The consumer may already hold tk from p.order: no
				// worker will close its channel, so close it here.
				close(tk.out)
			}
			return
		}
	}
}

func (p *pipeline) work(fn unitFunc, work <-chan *task) {
	for tk := range work {
		out := p.shared
		if p.ordered {
			out = tk.out
		}
		emit := func(b *outBatch) bool {
			select {
			case out <- item{b: b}:
				return true
			case <-p.ctx.Done():
				return false
			}
		}
		var err error
		if p.ctx.Err() == nil {
			err = runUnit(fn, tk.unit, p.batch, emit)
		}
		if err != nil {
			select {
			case out <- item{err: err}:
			case <-p.ctx.Done():
			}
		} else if p.done != nil && p.ctx.Err() == nil {
			p.done(tk.unit)
		}
		if p.ordered {
			close(tk.out)
		}
		if err != nil {
			return
		}
	}
}

// runUnit runs fn, turning a panic into an error: it would otherwise kill
// the process from a goroutine that DB.Query's recover cannot reach.
func runUnit(fn unitFunc, unit int, get func() *outBatch, emit func(*outBatch) bool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("ctable: internal error in scan unit %d: %v\n%s", unit, r, debug.Stack())
		}
	}()
	return fn(unit, get, emit)
}

// batch returns a recycled batch or a new one.
func (p *pipeline) batch() *outBatch {
	select {
	case ob := <-p.free:
		ob.b.Sel = nil
		ob.b.Len = 0
		return ob
	default:
	}
	return newOutBatch(p.types)
}

// newOutBatch returns an empty batch of columns of types.
func newOutBatch(types []columnar.Type) *outBatch {
	ob := &outBatch{arenas: make([][]byte, len(types)), aux: make([][]byte, len(types))}
	ob.b.Cols = make([]*columnar.Vector, len(types))
	for i, t := range types {
		ob.b.Cols[i] = columnar.NewVector(t, 0)
	}
	return ob
}

// Schema returns the scanned columns, in spec.Cols order.
func (p *pipeline) Schema() columnar.Schema { return p.schema }

// Next returns the next batch, valid until the following call.
func (p *pipeline) Next(ctx context.Context) (*columnar.Batch, error) {
	if p.prev != nil {
		select {
		case p.free <- p.prev:
		default:
		}
		p.prev = nil
	}
	if p.err != nil {
		return nil, p.err
	}
	if p.closed || (p.limit >= 0 && p.produced >= p.limit) {
		return nil, io.EOF
	}
	for {
		var it item
		var ok bool
		if p.ordered {
			if p.cur == nil {
				select {
				case p.cur, ok = <-p.order:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				if !ok {
					p.cur = nil
					return nil, p.end()
				}
			}
			select {
			case it, ok = <-p.cur.out:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if !ok {
				p.cur = nil
				continue
			}
		} else {
			select {
			case it, ok = <-p.shared:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if !ok {
				return nil, p.end()
			}
		}
		if it.err != nil {
			p.err = it.err
			p.cancel()
			return nil, it.err
		}
		b := &it.b.b
		p.prev = it.b
		live := int64(b.Live())
		if p.limit >= 0 && p.produced+live > p.limit {
			keep := int(p.limit - p.produced)
			if b.Sel != nil {
				b.Sel = b.Sel[:keep]
			} else {
				b.Len = keep
			}
			live = int64(keep)
		}
		p.produced += live
		if live == 0 {
			continue
		}
		return b, nil
	}
}

func (p *pipeline) end() error {
	if err := p.ctx.Err(); err != nil && !p.closed {
		p.err = err
		return err
	}
	return io.EOF
}

// Close stops the workers and waits for them. Safe to call twice.
func (p *pipeline) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	p.cancel()
	p.wg.Wait()
	return nil
}

// ownedPayload is the storage a vector owned before alias pointed it at a
// decoded block, given back by unalias before the column is filled again
// (the decoder reuses that block; a copy into it would corrupt the cache).
type ownedPayload struct {
	floats  []float64
	ints    []int64
	aliased bool
}
