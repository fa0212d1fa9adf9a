package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// CTE computes the rows of a WITH entry once for every CTEScan that reads
// them (a common table expression referenced more than once). The first
// Open of any reader runs Input to the end into a row store, under a
// mutex, so readers in parallel pipelines or re-opened subqueries wait for
// the one computation and then replay it; an error (or the cancellation of
// the query) is remembered and returned to every later reader.
//
// The rows are reserved from the query's memory manager as they arrive.
// When it refuses more, the rows held are written to a spill file and the
// rest of the input follows them there, so the file holds every row in
// input order and each reader streams it with a reader of its own. The
// rows (or the file) are held until Release, which the query's end calls
// (QueryRoot).
//
// CTE is an Operator only so that EXPLAIN can show it with its input: its
// own Open computes the rows and its Next yields none.
type CTE struct {
	Input Operator
	Name  string
	Uses  int // references reading it, for EXPLAIN

	mem   *memory.Manager
	res   *memory.Reservation
	mu    sync.Mutex
	done  bool
	err   error
	store *chunkedStore
	w     *spill.Writer // while spilling: the file being written
	file  *spill.File   // spilled: every row, in order
}

func (c *CTE) SetMemory(m *memory.Manager)    { c.mem = m }
func (c *CTE) Types() []columnar.Type         { return c.Input.Types() }
func (c *CTE) Children() []Operator           { return []Operator{c.Input} }
func (c *CTE) Open(ctx context.Context) error { return c.materialize(ctx) }
func (c *CTE) Close() error                   { return nil }
func (c *CTE) String() string {
	if c.Uses == 1 {
		return "CTE " + c.Name + " (materialized, 1 use)"
	}
	return fmt.Sprintf("CTE %s (materialized, %d uses)", c.Name, c.Uses)
}

// MemoryUse reports the materialization's peak and spilled bytes.
func (c *CTE) MemoryUse() (int64, int64) { return c.res.Peak(), c.res.SpilledBytes() }

func (c *CTE) Next(ctx context.Context) (*columnar.Batch, error) { return nil, io.EOF }

// Release drops the rows and removes the spill file; a later reader
// computes them again.
func (c *CTE) Release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drop()
	c.done, c.err = false, nil
}

func (c *CTE) drop() {
	c.store = nil
	if c.w != nil {
		c.w.Close()
		c.w = nil
	}
	c.file.Remove()
	c.file = nil
	c.res.Free()
}

// materialize computes the rows unless an earlier call did (or failed).
func (c *CTE) materialize(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return c.err
	}
	c.done = true
	c.err = c.run(ctx)
	if c.err != nil {
		c.drop()
	}
	return c.err
}

func (c *CTE) run(ctx context.Context) error {
	types := c.Input.Types()
	c.drop()
	c.store = newChunkedStore(types, 0)
	if c.res == nil {
		c.res = c.mem.Reserve("CTE materialization", memory.Spillable)
	}
	if err := c.Input.Open(ctx); err != nil {
		c.Input.Close()
		return err
	}
	err := c.fill(ctx, types)
	if cerr := c.Input.Close(); err == nil {
		err = cerr
	}
	if err == nil && c.w != nil {
		c.file, err = c.w.Finish()
		c.w = nil
		if c.file != nil {
			c.res.Spilled(c.file.Bytes)
		}
	}
	return err
}

// fill reads the input to the end into the store, or the spill file once
// the memory manager refuses more.
func (c *CTE) fill(ctx context.Context, types []columnar.Type) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := c.Input.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		view := columnar.Batch{Cols: b.Cols[:len(types)], Len: b.Len, Sel: b.Sel}
		if c.w == nil {
			err := c.res.Grow(storeBytes(&view, view.Cols))
			if err == nil {
				c.store.appendRows(&view, view.Cols)
				continue
			}
			var oom *memory.OutOfMemory
			// Nothing held yet (a first batch over the limit) still spills.
			if !errors.Is(err, memory.ErrSpill) && !(errors.As(err, &oom) && c.mem.TempDir() != "") {
				return err
			}
			if err := c.spillStore(ctx, types); err != nil {
				return err
			}
		}
		if err := c.w.Write(ctx, &view); err != nil {
			return err
		}
	}
}

// spillStore starts the spill file with the rows held and frees them.
func (c *CTE) spillStore(ctx context.Context, types []columnar.Type) error {
	w, err := c.mem.SpillDir().Create(types, c.mem.MaxTemp())
	if err != nil {
		return err
	}
	c.w = w
	tmp := columnar.NewBatch(types, columnar.MaxBatch)
	for from := 0; from < c.store.n; from += columnar.MaxBatch {
		to := min(from+columnar.MaxBatch, c.store.n)
		for k := range types {
			c.store.copyRange(tmp.Cols[k], k, from, to)
		}
		tmp.Len, tmp.Sel = to-from, nil
		if err := w.Write(ctx, tmp); err != nil {
			return err
		}
	}
	c.store = nil
	c.res.Free()
	return nil
}

// CTEScan replays the rows of a CTE, in the order they were computed, in
// batches of up to MaxBatch rows (byte payloads shared with the store, or
// read from the CTE's spill file). Each reference of the CTE has its own
// CTEScan; the batches it returns are valid until its next Next and must
// not be written to.
type CTEScan struct {
	CTE *CTE

	pos int
	out *columnar.Batch
	r   *spill.Reader // the CTE spilled: this scan's reader of its file
}

func (s *CTEScan) Types() []columnar.Type { return s.CTE.Types() }
func (s *CTEScan) Children() []Operator   { return nil }
func (s *CTEScan) String() string         { return "CTE scan " + s.CTE.Name }

func (s *CTEScan) Close() error {
	if s.r != nil {
		s.r.Close()
		s.r = nil
	}
	return nil
}

func (s *CTEScan) Open(ctx context.Context) error {
	s.pos = 0
	s.Close()
	if err := s.CTE.materialize(ctx); err != nil {
		return err
	}
	if f := s.CTE.file; f != nil {
		r, err := f.Open()
		if err != nil {
			return err
		}
		s.r = r
	}
	return nil
}

func (s *CTEScan) Next(ctx context.Context) (*columnar.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.r != nil {
		return s.r.Next(ctx)
	}
	st := s.CTE.store
	if st == nil || s.pos >= st.n {
		return nil, io.EOF
	}
	from, to := s.pos, min(s.pos+columnar.MaxBatch, st.n)
	s.pos = to
	if s.out == nil {
		s.out = columnar.NewBatch(s.CTE.Types(), columnar.MaxBatch)
	}
	for c := range st.cols {
		st.copyRange(s.out.Cols[c], c, from, to)
	}
	s.out.Len, s.out.Sel = to-from, nil
	return s.out, nil
}
