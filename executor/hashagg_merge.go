package executor

import (
	"context"
	"errors"
	"hash/maphash"
	"math/bits"
	"sync"

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
// The partials' batches are copied (Vector.Gather) into the partitions, but
// byte payloads are shared: they must stay valid until Close (a HashAgg's
// keys and states do).
type PartitionMerge struct {
	Partials []Operator
	Keys     []int
	Sources  []*PartitionSource
	Finals   []Operator

	mem    *memory.Manager       // the query's (SetMemory); nil: no accounting
	res    []*memory.Reservation // per partial: the batches it dealt
	cancel context.CancelFunc
	cur    int
	once   sync.Once
}

// PartitionSource replays one partition of a PartitionMerge to its final.
type PartitionSource struct {
	Out []columnar.Type
	// Child is the first partial, shown under the source by EXPLAIN.
	Child Operator
	Desc  string

	// parts[w] holds the batches of this partition dealt by worker w, in
	// memory; files[w] those it spilled (read first); res[w] is what the
	// in-memory batches reserve, returned as they are handed on.
	parts   [][]*columnar.Batch
	files   []*spill.File
	res     []*memory.Reservation
	r       *spill.Reader
	w, i    int
	pending *columnar.Batch
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

// Next returns the partition's next batch: the spilled ones first, then
// those in memory; a batch already returned is dropped, so the partition's
// memory is freed as its final consumes it.
func (s *PartitionSource) Next(ctx context.Context) (*columnar.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for s.w < len(s.parts) {
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
		if s.i < len(s.parts[s.w]) {
			b := s.parts[s.w][s.i]
			s.parts[s.w][s.i] = nil
			s.i++
			if s.w < len(s.res) {
				s.res[s.w].Shrink(dealtBytes(b))
			}
			return b, nil
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
	s.files, s.parts = nil, nil
}

// dealtBytes estimates what a dealt batch holds: its fixed-width payloads
// and slice headers (byte payloads are shared with the partial).
func dealtBytes(b *columnar.Batch) int64 {
	return int64(b.Len) * int64(len(b.Cols)) * 16
}

func (m *PartitionMerge) Open(ctx context.Context) error {
	ctx, m.cancel = context.WithCancel(ctx)
	m.cur = 0
	np := len(m.Sources)
	for _, s := range m.Sources {
		s.drop()
		s.parts = make([][]*columnar.Batch, len(m.Partials))
		s.files = make([]*spill.File, len(m.Partials))
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
		d := dealer{keys: m.Keys, parts: np, seed: seed}
		out := make([][]*columnar.Batch, np)
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
		for {
			b, err := m.Partials[w].Next(ctx)
			if err == ioEOF {
				break
			}
			if err != nil {
				return err
			}
			added := d.deal(b, out)
			err = res.Grow(added)
			var oom *memory.OutOfMemory
			if errors.Is(err, memory.ErrSpill) || errors.As(err, &oom) && res.Size() == 0 && m.mem.TempDir() != "" {
				err = m.spillDealt(ctx, w, out, ws)
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
			s.parts[w] = out[p]
		}
		return nil
	}, &first, m.cancel)
	if first.err != nil {
		return first.err
	}
	run(np, func(p int) error { return m.Finals[p].Open(ctx) }, &first, m.cancel)
	return first.err
}

// spillDealt writes the batches worker w holds for each partition to its
// spill file for that partition, and frees them.
func (m *PartitionMerge) spillDealt(ctx context.Context, w int, out [][]*columnar.Batch, ws []*spill.Writer) error {
	for p, bs := range out {
		if len(bs) == 0 {
			continue
		}
		if ws[p] == nil {
			wr, err := m.mem.SpillDir().Create(m.Sources[p].Out, m.mem.MaxTemp())
			if err != nil {
				return err
			}
			ws[p] = wr
		}
		for _, b := range bs {
			if err := ws[p].Write(ctx, b); err != nil {
				return err
			}
		}
		out[p] = nil
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

func (f *firstError) set(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
}

func (m *PartitionMerge) Next(ctx context.Context) (*columnar.Batch, error) {
	for m.cur < len(m.Finals) {
		b, err := m.Finals[m.cur].Next(ctx)
		if err == ioEOF {
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

// dealer splits batches into partitions by a hash of the key columns.
type dealer struct {
	keys   []int
	parts  int
	seed   maphash.Seed
	hashes []uint64
	rows   [][]int32
	key    []byte // scratch: a nested key's normal form
}

// deal appends the live rows of b, copied, to out[p] for their partition p,
// and returns the bytes the copies hold (dealtBytes).
func (d *dealer) deal(b *columnar.Batch, out [][]*columnar.Batch) int64 {
	live := b.Live()
	if cap(d.hashes) < b.Len {
		d.hashes = make([]uint64, max(b.Len, columnar.MaxBatch))
	}
	h := d.hashes[:b.Len]
	forEach(b, func(i int) { h[i] = 0x2d358dccaa6c78a5 })
	for _, k := range d.keys {
		d.hashColumn(b, b.Cols[k], h)
	}
	if len(d.rows) < d.parts {
		d.rows = make([][]int32, d.parts)
	}
	for p := range d.rows {
		d.rows[p] = d.rows[p][:0]
	}
	for k := 0; k < live; k++ {
		i := b.Row(k)
		p, _ := bits.Mul64(h[i], uint64(d.parts))
		d.rows[p] = append(d.rows[p], int32(i))
	}
	var added int64
	for p, rows := range d.rows[:d.parts] {
		if len(rows) == 0 {
			continue
		}
		nb := &columnar.Batch{Cols: make([]*columnar.Vector, len(b.Cols)), Len: len(rows)}
		for c, v := range b.Cols {
			nb.Cols[c] = &columnar.Vector{Type: v.Type}
			if v.Const {
				nb.Cols[c].Reset(len(rows))
				for r, i := range rows {
					nb.Cols[c].CopyRow(r, v, int(i), len(rows))
				}
				continue
			}
			nb.Cols[c].Gather(v, rows)
		}
		out[p] = append(out[p], nb)
		added += dealtBytes(nb)
	}
	return added
}

// hashColumn mixes column v into the hashes h of the live rows. Equal SQL
// values hash alike: -0 and 0, every NaN, a coded string and its plain
// value. The mix differs from the hash tables' (hashWords, Fibonacci
// hashing), so that a partition's keys still spread over a final's table.
func (d *dealer) hashColumn(b *columnar.Batch, v *columnar.Vector, h []uint64) {
	mix := func(i int, x uint64) {
		hi, lo := bits.Mul64(h[i]^x, 0xff51afd7ed558ccd)
		h[i] = hi ^ lo
	}
	forEach(b, func(i int) {
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
			if v.Type.ID == columnar.Interval { // equal intervals written apart hash alike
				s = columnar.IntervalOrderKey(s)
			}
			mix(i, maphash.Bytes(d.seed, s))
		case columnar.PhysNested: // equal values (hashtab's normal form) hash alike
			d.key = hashtab.EncodeKey(d.key[:0], []*columnar.Vector{v}, j)
			mix(i, maphash.Bytes(d.seed, d.key))
		}
	})
}
