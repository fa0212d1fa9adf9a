package executor

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
)

// UnitQueue hands the units of one scan to the workers of a parallel plan;
// each unit is taken by exactly one worker.
type UnitQueue struct {
	Units []func(ctx context.Context) (columnar.Reader, error)
	// Done, when non-nil, is incremented as each unit is finished.
	Done *int64
	next atomic.Int64
}

// take returns the next unit, or nil when none are left.
func (q *UnitQueue) take() func(ctx context.Context) (columnar.Reader, error) {
	i := q.next.Add(1) - 1
	if i >= int64(len(q.Units)) {
		return nil
	}
	return q.Units[i]
}

// UnitSource is one worker's scan: it reads units taken from a shared
// queue until the queue is empty. Start lazily builds the queue (the first
// worker to open does the planning I/O).
type UnitSource struct {
	Queue func(ctx context.Context) (*UnitQueue, error)
	Out   []columnar.Type
	Desc  string
	// Describe, when set, replaces Desc (Scan.Describe).
	Describe func() string

	q *UnitQueue
	r columnar.Reader
}

func (s *UnitSource) Types() []columnar.Type { return s.Out }
func (s *UnitSource) Children() []Operator   { return nil }
func (s *UnitSource) String() string         { return describe(s.Desc, s.Describe) }

func (s *UnitSource) Open(ctx context.Context) error {
	q, err := s.Queue(ctx)
	s.q = q
	return err
}

func (s *UnitSource) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.r == nil {
			u := s.q.take()
			if u == nil {
				return nil, ioEOF
			}
			r, err := u(ctx)
			if err != nil {
				return nil, err
			}
			s.r = r
		}
		b, err := s.r.Next(ctx)
		if err == ioEOF {
			s.r.Close()
			s.r = nil
			if s.q.Done != nil {
				atomic.AddInt64(s.q.Done, 1)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if b.Live() > 0 {
			return b, nil
		}
	}
}

func (s *UnitSource) Close() error {
	if s.r != nil {
		r := s.r
		s.r = nil
		return r.Close()
	}
	return nil
}

// Gather runs each child pipeline in its own goroutine and merges their
// batches in arrival order. A child's batch stays valid until the consumer
// asks for the next one: the child is not pulled again before that.
type Gather struct {
	Inputs []Operator

	cancel  context.CancelFunc
	results chan gathered
	wg      sync.WaitGroup
	pending chan struct{} // ack for the batch last returned
	err     error
	once    sync.Once
}

type gathered struct {
	b   *columnar.Batch
	err error
	ack chan struct{}
}

func (g *Gather) Types() []columnar.Type { return g.Inputs[0].Types() }
func (g *Gather) Children() []Operator   { return g.Inputs[:1] }
func (g *Gather) Copies() []Operator     { return g.Inputs }
func (g *Gather) String() string         { return "Gather workers=" + itoa(int64(len(g.Inputs))) }

func (g *Gather) Open(ctx context.Context) error {
	ctx, g.cancel = context.WithCancel(ctx)
	g.results = make(chan gathered, len(g.Inputs))
	for _, in := range g.Inputs {
		g.wg.Add(1)
		go g.run(ctx, in)
	}
	go func() {
		g.wg.Wait()
		close(g.results)
	}()
	return nil
}

func (g *Gather) run(ctx context.Context, in Operator) {
	defer g.wg.Done()
	send := func(r gathered) bool {
		select {
		case g.results <- r:
			return true
		case <-ctx.Done():
			return false
		}
	}
	defer func() {
		if p := recover(); p != nil {
			send(gathered{err: errorf("internal error in worker: %v", p)})
		}
	}()
	if err := in.Open(ctx); err != nil {
		send(gathered{err: err})
		return
	}
	ack := make(chan struct{}, 1) // buffered: a Next after the worker left (cancelled) must not block
	for {
		b, err := in.Next(ctx)
		if err == ioEOF {
			return
		}
		if err != nil {
			send(gathered{err: err})
			return
		}
		if !send(gathered{b: b, ack: ack}) {
			return
		}
		select {
		case <-ack:
		case <-ctx.Done():
			return
		}
	}
}

func (g *Gather) Next(ctx context.Context) (*columnar.Batch, error) {
	if g.pending != nil {
		g.pending <- struct{}{}
		g.pending = nil
	}
	if g.err != nil {
		return nil, g.err
	}
	select {
	case r, ok := <-g.results:
		if !ok {
			return nil, ioEOF
		}
		if r.err != nil {
			g.err = r.err
			g.cancel()
			return nil, r.err
		}
		g.pending = r.ack
		return r.b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *Gather) Close() error {
	var err error
	g.once.Do(func() {
		if g.cancel != nil {
			g.cancel()
		}
		if g.pending != nil {
			// The worker waits for this ack or for cancellation; it has been cancelled.
			g.pending = nil
		}
		if g.results != nil {
			for range g.results {
			}
		}
		for _, in := range g.Inputs {
			if e := in.Close(); e != nil && err == nil {
				err = e
			}
		}
	})
	return err
}
