package executor

import (
	"container/heap"
	"context"
	"errors"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// External merge sort. When the memory manager refuses a Sort more room
// (memory.ErrSpill), the rows it holds are sorted and written out as a
// run, keys included, and the store starts again empty. At the end the
// runs are merged: at most mergeFanIn at a time, so a tiny limit that made
// many runs merges them in several rounds, each writing a longer run. Ties
// keep input order: runs hold consecutive stretches of the input, and the
// merge prefers the earlier run.

// mergeFanIn bounds the runs read at once (each holds a batch and a read
// buffer in memory).
var mergeFanIn = 32

// storeBytes estimates what the live rows of cols take held in a
// chunkedStore with 36 bytes of per-row bookkeeping beside (a hash join's
// links and hashes, a spool's replay).
func storeBytes(b *columnar.Batch, cols []*columnar.Vector) int64 {
	return chunkBytes(b, cols) + int64(b.Live())*36
}

// chunkBytes estimates what the live rows of cols take in a
// chunkedStore: 8 bytes a value (a string's offset) and the strings, 2 or
// 4 for narrow integers (narrowWidth), at most 16 for a wide integer
// (store_wide.go).
func chunkBytes(b *columnar.Batch, cols []*columnar.Vector) int64 {
	n := b.Live()
	size := int64(0)
	for _, v := range cols {
		if wideInt(v.Type) {
			size += int64(n) * wideKeyBytes
			continue
		}
		if w := narrowWidth(v.Type); w != 0 {
			size += int64(n) * int64(w/8)
		} else {
			size += int64(n) * 8
		}
		if v.Type.IsNested() {
			size += nestedBytes(b, v)
			continue
		}
		if v.Type.Phys() != columnar.PhysBytes {
			continue
		}
		for k := range n {
			i := idx(v, b.Row(k))
			if !v.IsNull(i) {
				size += int64(len(bytesAt(v, i)))
			}
		}
	}
	return size
}

// reserve asks for the room of the next batch, spilling what the sort
// holds when the manager says so.
func (s *Sort) reserve(ctx context.Context, need int64) error {
	err := s.res.Grow(need)
	if errors.Is(err, memory.ErrSpill) {
		if err := s.spillRun(ctx); err != nil {
			return err
		}
		err = s.res.Grow(need)
	}
	return s.mustHold(err, need)
}

// mustHold turns a refusal of the first batch into a forced reservation
// when the sort can spill: other operators hold the memory, and holding
// one batch over the limit is how this one makes progress (it writes a
// run as soon as it holds more).
func (s *Sort) mustHold(err error, need int64) error {
	var oom *memory.OutOfMemory
	if errors.As(err, &oom) && s.res.Size() == 0 && s.mem.TempDir() != "" {
		s.res.Force(need)
		return nil
	}
	return err
}

// spillRun sorts the rows held and writes them out as one run.
func (s *Sort) spillRun(ctx context.Context) error {
	perm, err := sortPerm(ctx, s.store, s.keyCols, s.Keys)
	if err != nil {
		return err
	}
	f, err := s.writeRun(ctx, func(out *columnar.Batch, from, to int) {
		s.store.gather(out, perm, from, to)
	}, s.store.n)
	if err != nil {
		return err
	}
	s.runs = append(s.runs, f)
	s.store = newChunkedStore(s.types, 0)
	s.res.Free()
	return nil
}

// writeRun writes n rows, taken MaxBatch at a time by fill, to a new file.
func (s *Sort) writeRun(ctx context.Context, fill func(out *columnar.Batch, from, to int), n int) (*spill.File, error) {
	w, err := s.mem.SpillDir().Create(s.types, s.mem.MaxTemp())
	if err != nil {
		return nil, err
	}
	defer w.Close()
	tmp := columnar.NewBatch(s.types, columnar.MaxBatch)
	for from := 0; from < n; from += columnar.MaxBatch {
		fill(tmp, from, min(from+columnar.MaxBatch, n))
		if err := w.Write(ctx, tmp); err != nil {
			return nil, err
		}
	}
	f, err := w.Finish()
	if err != nil {
		return nil, err
	}
	s.res.Spilled(f.Bytes)
	return f, nil
}

// startMerge spills what is still held and merges the runs down to at
// most mergeFanIn, then opens the final merge that Next reads.
func (s *Sort) startMerge(ctx context.Context) error {
	if s.store.n > 0 {
		if err := s.spillRun(ctx); err != nil {
			return err
		}
	}
	for len(s.runs) > mergeFanIn {
		m, err := openMerge(s.runs[:mergeFanIn], s.keyCols, s.Keys)
		if err != nil {
			return err
		}
		var merr error
		rows := 0
		for _, r := range s.runs[:mergeFanIn] {
			rows += int(r.Rows)
		}
		f, err := s.writeRun(ctx, func(out *columnar.Batch, from, to int) {
			if merr == nil {
				merr = m.next(ctx, out, to-from)
			}
		}, rows)
		m.close()
		if err == nil {
			err = merr
		}
		if err != nil {
			if f != nil {
				f.Remove()
			}
			return err
		}
		for _, r := range s.runs[:mergeFanIn] {
			r.Remove()
		}
		s.runs = append(s.runs[mergeFanIn:], f)
	}
	m, err := openMerge(s.runs, s.keyCols, s.Keys)
	if err != nil {
		return err
	}
	s.merge = m
	return nil
}

// removeRuns deletes the sort's spill files.
func (s *Sort) removeRuns() {
	if s.merge != nil {
		s.merge.close()
		s.merge = nil
	}
	for _, f := range s.runs {
		f.Remove()
	}
	s.runs = nil
}

// runMerge merges sorted runs row by row through a heap of the runs'
// current rows.
type runMerge struct {
	readers []*spill.Reader
	cur     []*columnar.Batch // each run's current batch (nil: run ended)
	pos     []int
	keys    [][]*columnar.Vector // each run's key vectors of cur
	order   []int                // heap of runs with rows left
	keyCols []int                // the runs' key columns
	spec    []SortKey
	bytes   arena // output strings, copied (a run's batch goes on Next)
}

func openMerge(runs []*spill.File, keyCols []int, spec []SortKey) (*runMerge, error) {
	m := &runMerge{keyCols: keyCols, spec: spec}
	for _, f := range runs {
		r, err := f.Open()
		if err != nil {
			m.close()
			return nil, err
		}
		m.readers = append(m.readers, r)
	}
	m.cur = make([]*columnar.Batch, len(runs))
	m.pos = make([]int, len(runs))
	m.keys = make([][]*columnar.Vector, len(runs))
	for i := range runs {
		if err := m.advance(context.Background(), i); err != nil {
			m.close()
			return nil, err
		}
		if m.cur[i] != nil {
			m.order = append(m.order, i)
		}
	}
	heap.Init(m)
	return m, nil
}

// advance reads run i's next batch (cur[i] nil at its end).
func (m *runMerge) advance(ctx context.Context, i int) error {
	b, err := m.readers[i].Next(ctx)
	if err == io.EOF {
		m.cur[i] = nil
		return nil
	}
	if err != nil {
		return err
	}
	m.cur[i], m.pos[i] = b, 0
	m.keys[i] = m.keys[i][:0]
	for _, c := range m.keyCols {
		m.keys[i] = append(m.keys[i], b.Cols[c])
	}
	return nil
}

func (m *runMerge) Len() int { return len(m.order) }
func (m *runMerge) Less(a, b int) bool {
	x, y := m.order[a], m.order[b]
	c := compareAcross(m.keys[x], m.pos[x], m.keys[y], m.pos[y], m.spec)
	return c < 0 || c == 0 && x < y
}
func (m *runMerge) Swap(a, b int) { m.order[a], m.order[b] = m.order[b], m.order[a] }
func (m *runMerge) Push(x any)    { m.order = append(m.order, x.(int)) }
func (m *runMerge) Pop() any {
	x := m.order[len(m.order)-1]
	m.order = m.order[:len(m.order)-1]
	return x
}

// next fills out (its first len(out.Cols) columns of the runs) with up to
// limit rows; out.Len 0 at the end.
func (m *runMerge) next(ctx context.Context, out *columnar.Batch, limit int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.bytes.reset()
	for _, v := range out.Cols {
		v.Reset(limit)
	}
	out.Sel = nil
	k := 0
	for ; k < limit && len(m.order) > 0; k++ {
		i := m.order[0]
		b, p := m.cur[i], m.pos[i]
		for c, v := range out.Cols {
			if v.Type.IsNested() { // its payloads go with the run's batch
				v.CopyRowOwned(k, b.Cols[c], p, limit)
				continue
			}
			v.CopyRow(k, b.Cols[c], p, limit)
			if v.Type.Phys() == columnar.PhysBytes && !v.IsNull(k) {
				buf := m.bytes.alloc(len(v.Bytes[k]))
				copy(buf, v.Bytes[k])
				v.Bytes[k] = buf
			}
		}
		m.pos[i]++
		if m.pos[i] == b.Len {
			if err := m.advance(ctx, i); err != nil {
				return err
			}
			if m.cur[i] == nil {
				heap.Pop(m)
				continue
			}
		}
		heap.Fix(m, 0)
	}
	out.Len = k
	return nil
}

func (m *runMerge) close() {
	for _, r := range m.readers {
		r.Close()
	}
	m.readers = nil
}
