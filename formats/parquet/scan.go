package parquet

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// batchRows is the number of rows per output batch. Larger batches amortize
// the per-call overhead of arrow-go's column readers; see
// BenchmarkBatchSize. A variable only so that the benchmark can vary it.
var batchRows int64 = 2 * columnar.MaxBatch

// outBatch is a batch plus the storage it owns, recycled between workers
// and the consumer.
type outBatch struct {
	b      columnar.Batch
	valid  []columnar.Bitmap // per column: reusable validity storage
	arenas [][]byte          // per column: reusable byte storage
}

// item is what a worker hands the consumer: a batch or an error.
type item struct {
	b   *outBatch
	err error
}

// task is one row group to decode, with the channel its batches go to.
type task struct {
	unit    int
	maxRows int64 // rows to produce from the unit (less than its size under LIMIT)
	out     chan item
}

// scanner is the columnar.Reader returned by Table.Scan.
//
// A dispatcher goroutine hands row groups to spec.Threads workers. In
// ordered mode (Threads == 1 or Limit >= 0) each row group gets its own
// channel and the consumer drains them in file order; at most `window` row
// groups are decoded ahead of the consumer, which bounds memory. Otherwise
// all workers share one small channel and batches arrive in any order.
type scanner struct {
	t      *Table
	spec   index.ScanSpec
	schema columnar.Schema
	cols   []*column
	types  []columnar.Type
	stats  *index.ScanStats

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	ordered bool
	single  bool       // one worker
	order   chan *task // ordered mode: tasks in file order
	shared  chan item  // unordered mode: every worker's output
	cur     *task
	prev    *outBatch
	free    chan *outBatch

	// countUnits: count finished row groups in stats.UnitsDone (progress);
	// off for ScanUnits readers, whose queue counts units itself.
	countUnits bool
	// share, for ScanUnits readers: the workers and batches the readers
	// of one ScanUnits call hand on to each other (units.go); nil for Scan.
	share *unitShare

	limit    int64 // -1: none
	produced int64
	// plan is what planning decided per unit (page ranges); filtering is
	// true when spec.Filter is applied to rows (see filtered.go).
	plan      *scanPlan
	filtering bool
	err       error
	closed    bool
}

// Scan starts reading spec.Cols of the rows that satisfy spec.Filter (every
// predicate is applied exactly; see the package doc for what each scan rule
// skips on the way). Batches come in file order when spec.Threads == 1 or
// spec.Limit >= 0. The returned reader must be closed.
func (t *Table) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	s := &scanner{t: t, spec: spec, stats: spec.Stats, limit: spec.Limit, countUnits: true}
	if s.limit < -1 {
		s.limit = -1
	}
	for _, c := range spec.Cols {
		if c < 0 || c >= len(t.cols) {
			return nil, fmt.Errorf("parquet: %s: scan of column %d, table has %d", t.name, c, len(t.cols))
		}
		s.cols = append(s.cols, &t.cols[c])
		s.types = append(s.types, t.cols[c].field.Type)
		s.schema = append(s.schema, t.cols[c].field)
	}
	for _, f := range t.files {
		if f.closed {
			return nil, fmt.Errorf("parquet: %s: scan of a closed table", f.path)
		}
	}
	s.plan = t.planScan(spec)
	s.filtering = len(spec.Filter) > 0
	s.plan.count(s.stats, len(t.units))
	s.start(ctx, s.plan.read)
	return s, nil
}

// start launches the dispatcher and workers over the units in read.
func (s *scanner) start(ctx context.Context, read []int) {
	spec := s.spec
	threads := spec.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	threads = max(1, min(threads, len(read)))
	s.ordered = threads == 1 || s.limit >= 0 || spec.Ordered
	s.ctx, s.cancel = context.WithCancel(ctx)
	window := 2 * threads
	// The free list holds every batch that was ever in flight at once, so
	// that steady state allocates none (pointers only: cheap to size big).
	// The readers of one ScanUnits call share theirs.
	if s.share != nil {
		s.free = s.share.free
	} else {
		s.free = make(chan *outBatch, 1024)
	}
	s.single = threads == 1
	work := make(chan *task, window)
	if s.ordered {
		s.order = make(chan *task, window)
	} else {
		s.shared = make(chan item, 2*threads)
	}

	s.wg.Add(1)
	go s.dispatch(read, work)
	var workers sync.WaitGroup
	for range threads {
		s.wg.Add(1)
		workers.Add(1)
		go func() {
			defer s.wg.Done()
			defer workers.Done()
			s.work(work)
		}()
	}
	if !s.ordered {
		go func() {
			workers.Wait()
			close(s.shared)
		}()
	}
}

// dispatch queues the units to read, stopping early once LIMIT is covered.
func (s *scanner) dispatch(read []int, work chan<- *task) {
	defer s.wg.Done()
	defer close(work)
	if s.ordered {
		defer close(s.order)
	}
	var queued int64
	for _, ui := range read {
		if s.limit >= 0 && queued >= s.limit {
			return
		}
		u := &s.t.units[ui]
		tk := &task{unit: ui, maxRows: u.rows}
		switch {
		case s.filtering && s.limit >= 0:
			// A filtered unit yields an unknown number of rows: each may
			// have to produce the whole limit.
			tk.maxRows = min(u.rows, s.limit)
		case s.limit >= 0:
			tk.maxRows = min(u.rows, s.limit-queued)
			queued += tk.maxRows
		}
		if s.ordered {
			// With several workers, room for the whole unit: a worker never
			// waits for the consumer inside a unit (which would serialize
			// the workers); the window bounds memory instead. A single
			// worker decodes the unit the consumer reads: a short queue
			// suffices and keeps batches recycled.
			nb := int64(2)
			if !s.single {
				nb = (tk.maxRows+batchRows-1)/batchRows + 1
			}
			tk.out = make(chan item, nb)
			select {
			case s.order <- tk:
			case <-s.ctx.Done():
				return
			}
		}
		select {
		case work <- tk:
		case <-s.ctx.Done():
			if s.ordered {
				// The consumer may already hold tk from s.order: no
				// worker will close its channel, so close it here.
				close(tk.out)
			}
			return
		}
	}
}

// work decodes units until there are none left or the scan is cancelled.
func (s *scanner) work(work <-chan *task) {
	w := s.share.worker(s)
	defer s.share.release(w)
	for tk := range work {
		out := s.shared
		if s.ordered {
			out = tk.out
		}
		err := w.unit(tk, out)
		if err != nil {
			select {
			case out <- item{err: err}:
			case <-s.ctx.Done():
			}
		}
		if s.ordered {
			close(tk.out)
		}
		if err != nil {
			return
		}
	}
}

// worker holds one goroutine's decoders (and their scratch buffers).
type worker struct {
	s    *scanner
	decs []decoder
	// filtered unit scans (filtered.go): per table column, reused
	fcols map[int]*fcol
	rf    rowFilter
	gen   uint64 // filtered scans: counts batches (fcol.gen)
	rel   []int  // readRows: a run's rows relative to its first
}

// unit decodes one row group into batches sent to out.
func (w *worker) unit(tk *task, out chan<- item) (err error) {
	s := w.s
	if s.t.topkSkips(s.spec, tk.unit) {
		return nil
	}
	u := &s.t.units[tk.unit]
	pf := s.t.files[u.file]
	where := func(col int, err error) error {
		if col >= 0 {
			return fmt.Errorf("parquet: %s: row group %d: column %q: %w", pf.path, u.rg, s.cols[col].field.Name, err)
		}
		return fmt.Errorf("parquet: %s: row group %d: %w", pf.path, u.rg, err)
	}
	col := -1
	defer func() {
		for i := range w.decs {
			w.decs[i].close()
		}
		if r := recover(); r != nil {
			err = where(col, fmt.Errorf("%w: decoder panic: %v", ErrCorrupt, r))
		}
	}()
	preds, ranges := s.unitFilter(tk.unit)
	if err := s.prefetchUnit(tk.unit); err != nil {
		return where(-1, err)
	}
	if preds != nil || ranges != nil {
		tc, err := w.filteredUnit(tk, u, pf, preds, ranges, out)
		if err != nil {
			if tc >= 0 {
				return fmt.Errorf("parquet: %s: row group %d: column %q: %w", pf.path, u.rg, s.t.cols[tc].field.Name, err)
			}
			return where(-1, err)
		}
		if s.countUnits && s.stats != nil {
			atomic.AddInt64(&s.stats.UnitsDone, 1)
		}
		return nil
	}
	if len(s.cols) > 0 {
		rgr := pf.rdr.RowGroup(u.rg)
		var bytes int64
		for i := range w.decs {
			col = i
			if nc := s.cols[i].nested; nc != nil {
				bytes += nc.bytes(rgr.MetaData())
				w.decs[i].rg = u.rg
				if _, err := w.decs[i].open(pf, rgr, nil, -1); err != nil {
					return where(i, asCorrupt(err))
				}
				continue
			}
			cc, err := rgr.MetaData().ColumnChunk(s.cols[i].leaf)
			if err != nil {
				return where(i, asCorrupt(err))
			}
			bytes += cc.TotalCompressedSize()
			coded, err := w.decs[i].open(pf, rgr, cc, s.cols[i].leaf)
			if err != nil {
				return where(i, asCorrupt(err))
			}
			if coded && s.stats != nil {
				atomic.AddInt64(&s.stats.DictUnits, 1)
			}
		}
		col = -1
		if s.stats != nil {
			atomic.AddInt64(&s.stats.BytesRead, bytes)
		}
	}
	for done := int64(0); done < tk.maxRows; {
		if err := s.ctx.Err(); err != nil {
			return nil // the consumer went away or was cancelled
		}
		n := int(min(batchRows, tk.maxRows-done))
		ob := s.batch()
		ob.b.Len = n
		for i := range w.decs {
			col = i
			v := ob.b.Cols[i]
			v.Reset(n)
			got, valid, arena, err := w.decs[i].read(v, n, ob.valid[i], ob.arenas[i][:0])
			ob.valid[i], ob.arenas[i] = valid, arena
			if err != nil {
				return where(i, err)
			}
			if got != n {
				return where(i, w.decs[i].shortChunk(done+int64(got), u.rows))
			}
		}
		col = -1
		done += int64(n)
		if s.stats != nil {
			atomic.AddInt64(&s.stats.RowsRead, int64(n))
		}
		select {
		case out <- item{b: ob}:
		case <-s.ctx.Done():
			return nil
		}
	}
	if s.countUnits && s.stats != nil {
		atomic.AddInt64(&s.stats.UnitsDone, 1)
	}
	return nil
}

// batch returns a recycled batch or a new one.
func (s *scanner) batch() *outBatch {
	select {
	case ob := <-s.free:
		ob.b.Sel = nil
		return ob
	default:
	}
	ob := &outBatch{valid: make([]columnar.Bitmap, len(s.types)), arenas: make([][]byte, len(s.types))}
	ob.b.Cols = make([]*columnar.Vector, len(s.types))
	for i, t := range s.types {
		ob.b.Cols[i] = columnar.NewVector(t, int(batchRows))
	}
	return ob
}

// Schema returns the scanned columns, in spec.Cols order.
func (s *scanner) Schema() columnar.Schema { return s.schema }

// Next returns the next batch, valid until the following call.
func (s *scanner) Next(ctx context.Context) (*columnar.Batch, error) {
	if s.prev != nil {
		select {
		case s.free <- s.prev:
		default:
		}
		s.prev = nil
	}
	if s.err != nil {
		return nil, s.err
	}
	if s.closed || (s.limit >= 0 && s.produced >= s.limit) {
		return nil, io.EOF
	}
	for {
		var it item
		var ok bool
		if s.ordered {
			if s.cur == nil {
				select {
				case s.cur, ok = <-s.order:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				if !ok {
					s.cur = nil
					return nil, s.end()
				}
			}
			select {
			case it, ok = <-s.cur.out:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if !ok {
				s.cur = nil
				continue
			}
		} else {
			select {
			case it, ok = <-s.shared:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if !ok {
				return nil, s.end()
			}
		}
		if it.err != nil {
			s.err = it.err
			s.cancel()
			return nil, it.err
		}
		b := &it.b.b
		if s.limit >= 0 && s.produced+int64(b.Len) > s.limit {
			b.Len = int(s.limit - s.produced)
		}
		s.produced += int64(b.Len)
		s.prev = it.b
		if b.Len == 0 {
			continue
		}
		return b, nil
	}
}

// end reports io.EOF, or the cancellation that cut the scan short.
func (s *scanner) end() error {
	if err := s.ctx.Err(); err != nil && !s.closed {
		s.err = err
		return err
	}
	return io.EOF
}

// Close stops the workers and waits for them. It is safe to call twice.
func (s *scanner) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	s.cancel()
	s.wg.Wait()
	return nil
}
