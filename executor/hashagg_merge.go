package executor

import (
	"context"
	"errors"
	"hash/maphash"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// PartitionMerge runs the final phase of a parallel GROUP BY in parallel
// (DuckDB's radix-partitioned aggregate). Each partial pipeline runs in its
// own goroutine and deals its output rows into len(Sources) partitions by a
// hash of the group key columns Keys; once every partial is done, one
// goroutine per partition opens Finals[p], which reads Sources[p], the rows
// of partition p from every partial:
//
//	PartitionMerge partitions=P
//	└─ HashAggregate (final, one per partition)
//	   └─ PartitionSource p
//	      └─ HashAggregate (partial, one per worker)
//
// A group's rows from all workers share its key, hence its partition, so
// each final sees whole groups and the finals' outputs are disjoint: Next
// concatenates them. Keys may be a prefix of the partials' group keys (a
// DISTINCT aggregate's outer keys), so that a final of two stacked
// aggregates also sees whole outer groups.
//
// There are more partitions than workers (the planner makes several per
// worker), and the finals do not all run at once: workers open them in
// partition order, at most one more than the workers ahead of the one Next
// is emitting, and Next closes each final once emitted. So the finals'
// tables in memory at a time are a few partitions' worth, not all groups.
//
// The partials' batches are copied into the partitions, byte payloads
// included (into per-partition chunks), so a partial may reuse or free its
// memory once its batch is dealt, and a partition's copies are garbage as
// soon as its final has read them.
type PartitionMerge struct {
	Partials []Operator
	Keys     []int
	Sources  []*PartitionSource
	Finals   []Operator
	// KeyBounds, when not nil and Keys is one integer column, returns the
	// least and greatest value that column takes over the whole input (a
	// scanned table's statistics; ok false: unknown). It is asked at Open
	// only when a partial emits its groups as it goes (hashagg_flush.go),
	// whose table then samples only the first keys: the range dealt is
	// judged from the bounds instead (hashagg_range.go).
	KeyBounds func() (lo, hi int64, ok bool)

	mem    *memory.Manager       // the query's (SetMemory); nil: no accounting
	res    []*memory.Reservation // per partial: the batches it dealt
	ctx    context.Context       // Open's, cancelled by Close or a failing final
	cancel context.CancelFunc
	cur    int
	once   sync.Once

	// The finals being opened (finals): opened[p] is closed once final p
	// is open (openErr[p] its error); slots bounds the finals open and not
	// yet emitted; next is the next partition to open.
	opened  []chan struct{}
	openErr []error
	slots   chan struct{}
	next    atomic.Int32
	wg      sync.WaitGroup
	failed  firstError
}

// PartitionSource replays one partition of a PartitionMerge to its final.
type PartitionSource struct {
	Out []columnar.Type
	// Child is the first partial, shown under the source by EXPLAIN.
	Child Operator
	Desc  string

	// stores[w] holds the rows of this partition dealt by worker w, in
	// memory, reserving sizes[w] of res[w] until read; files[w] those it
	// spilled (read first).
	stores []*chunkedStore
	sizes  []int64
	files  []*spill.File
	res    []*memory.Reservation
	r      *spill.Reader
	w, i   int // the next row: row i of stores[w]
	out    *columnar.Batch
	// sketches[w] counts the distinct keys worker w dealt here (its first
	// keys columns: the merge's Keys).
	sketches []*keySketch
	keys     int
	// rng is the merge's key range (nil or off: dealt by hash) and part
	// this partition's number, whose piece of the range the final's table
	// may cover from its first key (keyRange).
	rng  *dealRange
	part int
	// spare, shared by the merge's partitions, passes the arrays of a
	// final's string table on to the finals opened after it.
	spare *hashtab.Spare
}

// keyRange returns the keys dealt to the partition by range, if it was.
func (s *PartitionSource) keyRange() (lo, hi int64, ok bool) {
	return s.rng.keys(s.part)
}

// distinctKeys estimates the distinct values of the partition's first
// keys columns over the rows dealt to it (keySketch).
func (s *PartitionSource) distinctKeys() (n, keys int) {
	var all keySketch
	for _, k := range s.sketches {
		if k != nil {
			all.merge(k)
		}
	}
	return all.estimate(), s.keys
}

// lent returns the buffers holding the byte payloads dealt to the
// partition in memory: a final's string table may keep its keys where they
// lie in them (hashtab.Expect.Lent), as nothing changes a store once dealt
// and Next only hands out slices of it.
func (s *PartitionSource) lent() [][]byte {
	var bufs [][]byte
	for _, st := range s.stores {
		if st != nil {
			for c := range st.cols {
				bufs = append(bufs, st.cols[c].data...)
			}
		}
	}
	return bufs
}

// rows returns the rows dealt to the partition, or 0 when some were
// spilled (their count is not kept).
func (s *PartitionSource) rows() int {
	n := 0
	for w, st := range s.stores {
		if w < len(s.files) && s.files[w] != nil {
			return 0
		}
		if st != nil {
			n += st.n
		}
	}
	return n
}

// partitionSourceOf returns op, unwrapped, if it is a PartitionSource.
func partitionSourceOf(op Operator) *PartitionSource {
	for {
		switch x := op.(type) {
		case *PartitionSource:
			return x
		case interface{ Unwrap() Operator }:
			op = x.Unwrap()
		default:
			return nil
		}
	}
}

// SetMemory makes the merge reserve the batches it deals from m, and
// spill them when refused.
func (m *PartitionMerge) SetMemory(mm *memory.Manager) { m.mem = mm }

func (m *PartitionMerge) Types() []columnar.Type { return m.Finals[0].Types() }
func (m *PartitionMerge) Children() []Operator   { return m.Finals[:1] }
func (m *PartitionMerge) String() string {
	return "PartitionMerge partitions=" + itoa(int64(len(m.Finals)))
}

func (s *PartitionSource) Types() []columnar.Type { return s.Out }
func (s *PartitionSource) Children() []Operator   { return []Operator{s.Child} }
func (s *PartitionSource) String() string         { return s.Desc }
func (s *PartitionSource) Open(ctx context.Context) error {
	s.w, s.i = 0, 0
	return nil
}
func (s *PartitionSource) Close() error { return nil }

// Next returns the partition's next batch: each worker's spilled rows,
// then those in memory; a worker's store is dropped once read, so the
// partition's memory is freed as its final consumes it.
func (s *PartitionSource) Next(ctx context.Context) (*columnar.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for s.w < len(s.stores) {
		if s.w < len(s.files) && s.files[s.w] != nil {
			if s.r == nil {
				r, err := s.files[s.w].Open()
				if err != nil {
					return nil, err
				}
				s.r = r
			}
			b, err := s.r.Next(ctx)
			if err != ioEOF {
				return b, err
			}
			s.r.Close()
			s.r = nil
			s.files[s.w].Remove()
			s.files[s.w] = nil
		}
		if st := s.stores[s.w]; st != nil {
			if s.i < st.n {
				end := min(s.i+columnar.MaxBatch, st.n)
				if s.out == nil {
					s.out = columnar.NewBatch(s.Out, columnar.MaxBatch)
				}
				for c := range s.Out {
					st.copyRange(s.out.Cols[c], c, s.i, end)
				}
				s.out.Len, s.out.Sel = end-s.i, nil
				s.i = end
				return s.out, nil
			}
			s.stores[s.w] = nil
			s.res[s.w].Shrink(s.sizes[s.w])
		}
		s.w, s.i = s.w+1, 0
	}
	return nil, ioEOF
}

// drop removes the partition's spill files and batches.
func (s *PartitionSource) drop() {
	if s.r != nil {
		s.r.Close()
		s.r = nil
	}
	for _, f := range s.files {
		if f != nil {
			f.Remove()
		}
	}
	s.files, s.stores, s.out, s.spare = nil, nil, nil, nil
}

func (m *PartitionMerge) Open(ctx context.Context) error {
	if m.cancel != nil { // opened before: stop the finals still opening
		m.cancel()
		m.wg.Wait()
	}
	ctx, m.cancel = context.WithCancel(ctx)
	m.ctx = ctx
	m.failed.reset()
	m.cur = 0
	np := len(m.Sources)
	rng := &dealRange{}
	spare := &hashtab.Spare{}
	for p, s := range m.Sources {
		s.drop()
		s.rng, s.part, s.spare = rng, p, spare
		s.stores = make([]*chunkedStore, len(m.Partials))
		s.sizes = make([]int64, len(m.Partials))
		s.files = make([]*spill.File, len(m.Partials))
		s.sketches = make([]*keySketch, len(m.Partials))
		s.keys = len(m.Keys)
		s.w, s.i = 0, 0
	}
	if m.res == nil {
		for range m.Partials {
			m.res = append(m.res, m.mem.Reserve("parallel aggregate exchange", memory.Spillable))
		}
	}
	for _, s := range m.Sources {
		s.res = m.res
	}
	seed := maphash.MakeSeed()
	var first firstError
	run(len(m.Partials), func(w int) error {
		d := dealer{keys: m.Keys, parts: np, seed: seed, types: m.Sources[0].Out, rng: rng}
		d.stores, d.sizes = make([]*chunkedStore, np), make([]int64, np)
		d.sketches = make([]keySketch, np)
		ws := make([]*spill.Writer, np)
		defer func() {
			for _, wr := range ws {
				if wr != nil {
					wr.Close()
				}
			}
		}()
		res := m.res[w]
		res.Free()
		if err := m.Partials[w].Open(ctx); err != nil {
			return err
		}
		if len(m.Keys) == 1 {
			d.sample = sampleKeys(m.Partials[w])
			d.ordered = flushesInOrder(m.Partials[w])
			d.bounds = m.KeyBounds
		}
		for {
			b, err := m.Partials[w].Next(ctx)
			if err == ioEOF {
				break
			}
			if err != nil {
				return err
			}
			added := d.deal(b)
			err = res.Grow(added)
			var oom *memory.OutOfMemory
			if errors.Is(err, memory.ErrSpill) || errors.As(err, &oom) && res.Size() == 0 && m.mem.TempDir() != "" {
				err = m.spillDealt(ctx, w, &d, ws)
			}
			if err != nil {
				return err
			}
		}
		for p, wr := range ws {
			if wr == nil {
				continue
			}
			f, err := wr.Finish()
			ws[p] = nil
			if err != nil {
				return err
			}
			res.Spilled(f.Bytes)
			m.Sources[p].files[w] = f
		}
		for p, s := range m.Sources {
			s.stores[w], s.sizes[w] = d.stores[p], d.sizes[p]
			s.sketches[w] = &d.sketches[p]
		}
		return nil
	}, &first, m.cancel)
	if first.err != nil {
		return first.err
	}
	m.openFinals(ctx)
	return nil
}

// openFinals starts one goroutine per worker that opens the finals in
// partition order. A worker takes a slot before it takes a partition, and
// Next returns the slot once it has emitted that final, so the partition
// Next waits for always has a slot: no worker waits on a later one.
func (m *PartitionMerge) openFinals(ctx context.Context) {
	np := len(m.Finals)
	m.opened = make([]chan struct{}, np)
	for p := range m.opened {
		m.opened[p] = make(chan struct{})
	}
	m.openErr = make([]error, np)
	workers := len(m.Partials)
	m.slots = make(chan struct{}, workers+1)
	m.next.Store(0)
	for range workers {
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			for {
				select {
				case m.slots <- struct{}{}:
				case <-ctx.Done():
					return
				}
				p := int(m.next.Add(1)) - 1
				if p >= np {
					return
				}
				err := openFinal(ctx, m.Finals[p])
				m.openErr[p] = err
				close(m.opened[p])
				if err != nil {
					m.failed.set(err)
					m.cancel()
					return
				}
			}
		}()
	}
}

// openFinal opens op, turning a panic into an error.
func openFinal(ctx context.Context, op Operator) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errorf("internal error in worker: %v", p)
		}
	}()
	return op.Open(ctx)
}

// spillDealt writes the rows worker w holds for each partition to its
// spill file for that partition, and frees them.
func (m *PartitionMerge) spillDealt(ctx context.Context, w int, d *dealer, ws []*spill.Writer) error {
	var b *columnar.Batch
	for p, st := range d.stores {
		if st == nil {
			continue
		}
		if ws[p] == nil {
			wr, err := m.mem.SpillDir().Create(m.Sources[p].Out, m.mem.MaxTemp())
			if err != nil {
				return err
			}
			ws[p] = wr
		}
		if b == nil {
			b = columnar.NewBatch(d.types, columnar.MaxBatch)
		}
		for from := 0; from < st.n; from += columnar.MaxBatch {
			end := min(from+columnar.MaxBatch, st.n)
			for c := range b.Cols {
				st.copyRange(b.Cols[c], c, from, end)
			}
			b.Len, b.Sel = end-from, nil
			if err := ws[p].Write(ctx, b); err != nil {
				return err
			}
		}
		d.stores[p], d.sizes[p] = nil, 0
	}
	m.res[w].Free()
	return nil
}

// run calls fn(0..n-1) in n goroutines and waits for them; the first error
// (a panic becomes one) is kept in first and cancels the others.
func run(n int, fn func(i int) error, first *firstError, cancel context.CancelFunc) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					first.set(errorf("internal error in worker: %v", p))
					cancel()
				}
			}()
			if err := fn(i); err != nil {
				first.set(err)
				cancel()
			}
		}()
	}
	wg.Wait()
}

type firstError struct {
	mu  sync.Mutex
	err error
}

func (f *firstError) reset() {
	f.mu.Lock()
	f.err = nil
	f.mu.Unlock()
}

func (f *firstError) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

func (f *firstError) set(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
}

// Next emits the finals one after another, each once it is open; an
// emitted final is closed (its table freed) and its slot returned.
func (m *PartitionMerge) Next(ctx context.Context) (*columnar.Batch, error) {
	for m.cur < len(m.Finals) {
		select {
		case <-m.opened[m.cur]:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-m.ctx.Done():
			if err := m.failed.get(); err != nil {
				return nil, err
			}
			return nil, m.ctx.Err()
		}
		if err := m.openErr[m.cur]; err != nil {
			return nil, err
		}
		b, err := m.Finals[m.cur].Next(ctx)
		if err == ioEOF {
			m.Finals[m.cur].Close()
			<-m.slots
			m.cur++
			continue
		}
		return b, err
	}
	return nil, ioEOF
}

func (m *PartitionMerge) Close() error {
	var err error
	m.once.Do(func() {
		if m.cancel != nil {
			m.cancel()
			m.wg.Wait()
		}
		for _, op := range append(append([]Operator(nil), m.Partials...), m.Finals...) {
			if e := op.Close(); e != nil && err == nil {
				err = e
			}
		}
		for _, s := range m.Sources {
			s.drop()
		}
		for _, r := range m.res {
			r.Free()
		}
	})
	return err
}

// dealer splits batches into partitions by a hash of the key columns,
// copying each partition's rows into a chunkedStore of its own.
type dealer struct {
	keys   []int
	parts  int
	seed   maphash.Seed
	types  []columnar.Type
	hashes []uint64
	rows   [][]int
	key    []byte          // scratch: a nested key's normal form
	stores []*chunkedStore // per partition: the rows dealt to it
	sizes  []int64         // per partition: the bytes its rows take
	// sketches, when not nil, counts each partition's distinct keys.
	sketches []keySketch
	// rng, shared by the workers' dealers, deals one integer key by range
	// when sample (the partial's keys) or else the first batch shows a
	// wide, even spread (hashagg_range.go).
	rng    *dealRange
	sample []int64
	// ordered says the partial emits its groups as it goes (keys in
	// order): its sample is its first keys only, and the range is judged
	// from bounds, the key's bounds over the input, if known.
	ordered bool
	bounds  func() (lo, hi int64, ok bool)
}

// deal copies the live rows of b to the stores of their partitions and
// returns the bytes the copies take.
func (d *dealer) deal(b *columnar.Batch) int64 {
	live := b.Live()
	if cap(d.hashes) < b.Len {
		d.hashes = make([]uint64, max(b.Len, columnar.MaxBatch))
	}
	h := d.hashes[:b.Len]
	b.ForEach(func(i int) { h[i] = 0x2d358dccaa6c78a5 })
	for _, k := range d.keys {
		d.hashColumn(b, b.Cols[k], h)
	}
	if len(d.rows) < d.parts {
		d.rows = make([][]int, d.parts)
	}
	for p := range d.rows {
		d.rows[p] = d.rows[p][:0]
	}
	var byRange *columnar.Vector // the key column, when dealt by range
	if d.rng != nil && len(d.keys) == 1 {
		d.rng.once.Do(func() {
			if d.ordered {
				if d.bounds != nil {
					if lo, hi, ok := d.bounds(); ok {
						d.rng.decideBounds(lo, hi, d.parts)
					}
				}
				return
			}
			if d.sample != nil {
				d.rng.decideFrom(d.sample, d.parts)
			} else {
				d.rng.decide(b, b.Cols[d.keys[0]], d.parts)
			}
		})
		if d.rng.on {
			byRange = b.Cols[d.keys[0]]
		}
	}
	if byRange != nil && !byRange.Const && byRange.Valid == nil && b.Sel == nil {
		// The common case of range dealing as a plain loop (a call per
		// row to partitionOf was a tenth of dealing GROUP BY user_id).
		lo, width, shift := d.rng.lo, d.rng.width, d.rng.shift
		for i, v := range byRange.Ints[:b.Len] {
			x := spread(h[i])
			p, _ := bits.Mul64(x, uint64(d.parts))
			if o := uint64(v - lo); o < width {
				p = o >> shift
			}
			d.rows[p] = append(d.rows[p], i)
			if d.sketches != nil {
				d.sketches[p].add(x)
			}
		}
		byRange, live = nil, 0 // dealt
	}
	for k := 0; k < live; k++ {
		i := b.Row(k)
		x := spread(h[i])
		p, _ := bits.Mul64(x, uint64(d.parts))
		if byRange != nil {
			if q, ok := d.rng.partitionOf(byRange, i); ok {
				p = uint64(q)
			}
		}
		d.rows[p] = append(d.rows[p], i)
		if d.sketches != nil {
			d.sketches[p].add(x)
		}
	}
	var added int64
	for p, rows := range d.rows[:d.parts] {
		if len(rows) == 0 {
			continue
		}
		if d.stores[p] == nil {
			d.stores[p] = newChunkedStore(d.types, 0)
		}
		view := columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: rows}
		d.stores[p].appendRows(&view, b.Cols)
		n := chunkBytes(&view, b.Cols)
		d.sizes[p] += n
		added += n
	}
	return added
}

// partitionOf returns the partition, of parts, of a row whose key hashed to
// h. The hash is spread first: mixHash's high bits move little for small
// keys, so taking them as they are sent the 20 regions of the demo table
// to 2 of 16 partitions (one of them 99% of the rows), and the finals of
// count(DISTINCT user_id) GROUP BY region ran on one core.
func partitionOf(h uint64, parts int) int {
	p, _ := bits.Mul64(spread(h), uint64(parts))
	return int(p)
}

// spread mixes the bits of a row hash over all 64 (murmur3's finalizer,
// its last multiply left out: the partition takes the high bits of a
// product anyway).
func spread(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 29
	return h
}

// mixHash mixes word x into the row hash h.
func mixHash(h, x uint64) uint64 {
	hi, lo := bits.Mul64(h^x, 0xff51afd7ed558ccd)
	return hi ^ lo
}

// hashColumn mixes column v into the hashes h of the live rows. Equal SQL
// values hash alike: -0 and 0, every NaN, a coded string and its plain
// value. The mix differs from the hash tables' (hashWords, Fibonacci
// hashing), so that a partition's keys still spread over a final's table.
// Plain integer and float columns take a loop of their own (a call per
// row through ForEach was half of dealing GROUP BY user_id's 10M rows).
func (d *dealer) hashColumn(b *columnar.Batch, v *columnar.Vector, h []uint64) {
	if !v.Const && v.Valid == nil {
		switch v.Type.Phys() {
		case columnar.PhysInt:
			hashWords(b, v.Ints, h, func(x int64) uint64 { return uint64(x) })
			return
		case columnar.PhysUint:
			hashWords(b, v.Uints, h, func(x uint64) uint64 { return x })
			return
		case columnar.PhysFloat:
			hashWords(b, v.Floats, h, hashtab.FloatWord)
			return
		case columnar.PhysBytes:
			if v.Dict == nil && v.Type.ID != columnar.Interval {
				d.hashBytes(b, v.Bytes, h)
				return
			}
		}
	}
	d.hashRows(b, v, h)
}

// hashWords mixes the words word(vals[i]) of the live rows into h.
func hashWords[T any](b *columnar.Batch, vals []T, h []uint64, word func(T) uint64) {
	if b.Sel == nil {
		vals, h = vals[:b.Len], h[:b.Len]
		for i, x := range vals {
			h[i] = mixHash(h[i], word(x))
		}
		return
	}
	for _, i := range b.Sel {
		h[i] = mixHash(h[i], word(vals[i]))
	}
}

// hashBytes mixes the hashes of the live rows' plain byte strings into h:
// hashRows's closure and type switch per row were a tenth of dealing 10M
// distinct titles.
func (d *dealer) hashBytes(b *columnar.Batch, vals [][]byte, h []uint64) {
	if b.Sel == nil {
		vals, h = vals[:b.Len], h[:b.Len]
		for i, s := range vals {
			h[i] = mixHash(h[i], maphash.Bytes(d.seed, s))
		}
		return
	}
	for _, i := range b.Sel {
		h[i] = mixHash(h[i], maphash.Bytes(d.seed, vals[i]))
	}
}

// hashRows is hashColumn for any column, a row at a time.
func (d *dealer) hashRows(b *columnar.Batch, v *columnar.Vector, h []uint64) {
	mix := func(i int, x uint64) { h[i] = mixHash(h[i], x) }
	b.ForEach(func(i int) {
		j := idx(v, i)
		if v.IsNull(j) {
			mix(i, 0x8f1bbcdcca62c1d6)
			return
		}
		switch v.Type.Phys() {
		case columnar.PhysInt:
			mix(i, uint64(v.Ints[j]))
		case columnar.PhysUint:
			mix(i, v.Uints[j])
		case columnar.PhysBool:
			if v.Bools[j] {
				mix(i, 1)
			} else {
				mix(i, 0)
			}
		case columnar.PhysFloat:
			mix(i, hashtab.FloatWord(v.Floats[j]))
		case columnar.PhysBytes:
			s := bytesAt(v, j)
			if v.Type.ID == columnar.Interval {
				s = columnar.IntervalOrderKey(s)
			}
			mix(i, maphash.Bytes(d.seed, s))
		case columnar.PhysNested:
			d.key = hashtab.EncodeKey(d.key[:0], []*columnar.Vector{v}, j)
			mix(i, maphash.Bytes(d.seed, d.key))
		}
	})

}
