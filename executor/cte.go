package executor

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/b2sql/b2sql/columnar"
)

// CTE computes the rows of a WITH entry once for every CTEScan that reads
// them (a common table expression referenced more than once). The first
// Open of any reader runs Input to the end into a row store, under a
// mutex, so readers in parallel pipelines or re-opened subqueries wait for
// the one computation and then replay it; an error (or the cancellation of
// the query) is remembered and returned to every later reader. The rows are
// held until the plan is dropped; the Budget is checked while they
// accumulate, as a sort does.
//
// CTE is an Operator only so that EXPLAIN can show it with its input: its
// own Open computes the rows and its Next yields none.
type CTE struct {
	Input Operator
	Name  string
	Uses  int // references reading it, for EXPLAIN

	budget  *Budget
	mu      sync.Mutex
	done    bool
	err     error
	store   *rowStore
	scratch []*columnar.Vector // dictionary columns decoded before storing
}

func (c *CTE) SetBudget(b *Budget)            { c.budget = b }
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

func (c *CTE) Next(ctx context.Context) (*columnar.Batch, error) { return nil, io.EOF }

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
		c.store = nil
	}
	return c.err
}

func (c *CTE) run(ctx context.Context) error {
	types := c.Input.Types()
	c.store = newRowStore(types)
	c.scratch = make([]*columnar.Vector, len(types))
	if err := c.Input.Open(ctx); err != nil {
		c.Input.Close()
		return err
	}
	cols := make([]*columnar.Vector, len(types))
	for {
		if err := ctx.Err(); err != nil {
			c.Input.Close()
			return err
		}
		b, err := c.Input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			c.Input.Close()
			return err
		}
		for i, v := range b.Cols[:len(types)] {
			cols[i] = c.plain(i, v, b.Len)
		}
		c.store.appendRows(b, cols)
		if err := c.budget.Check(); err != nil {
			c.Input.Close()
			return err
		}
	}
	return c.Input.Close()
}

// plain returns v, or for a dictionary-coded vector its values decoded
// into a scratch vector (the row store copies byte payloads, not codes).
func (c *CTE) plain(i int, v *columnar.Vector, n int) *columnar.Vector {
	if v.Dict == nil {
		return v
	}
	if c.scratch[i] == nil {
		c.scratch[i] = columnar.NewVector(v.Type, 0)
	}
	s := c.scratch[i]
	if v.Const {
		s.Reset(1)
		s.CopyRow(0, v, 0, 1)
		s.Const = true
		return s
	}
	s.Const = false
	rows := make([]int32, n)
	for k := range rows {
		rows[k] = int32(k)
	}
	s.Gather(v, rows)
	return s
}

// CTEScan replays the rows of a CTE, in the order they were computed, in
// batches of up to MaxBatch rows that view the store (no copy). Each
// reference of the CTE has its own CTEScan; the batches it returns are
// valid until its next Next and must not be written to.
type CTEScan struct {
	CTE *CTE

	pos  int
	out  columnar.Batch
	vecs []columnar.Vector
}

func (s *CTEScan) Types() []columnar.Type { return s.CTE.Types() }
func (s *CTEScan) Children() []Operator   { return nil }
func (s *CTEScan) String() string         { return "CTE scan " + s.CTE.Name }
func (s *CTEScan) Close() error           { return nil }

func (s *CTEScan) Open(ctx context.Context) error {
	s.pos = 0
	return s.CTE.materialize(ctx)
}

func (s *CTEScan) Next(ctx context.Context) (*columnar.Batch, error) {
	st := s.CTE.store
	if st == nil || s.pos >= st.n {
		return nil, io.EOF
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Batches start at multiples of MaxBatch (a multiple of 64), so each
	// one's validity is a whole-word slice of the stored bitmap.
	from, to := s.pos, min(s.pos+columnar.MaxBatch, st.n)
	s.pos = to
	if s.vecs == nil {
		s.vecs = make([]columnar.Vector, len(st.cols))
		s.out.Cols = make([]*columnar.Vector, len(st.cols))
	}
	for c := range st.cols {
		st.viewRows(&s.vecs[c], c, from, to)
		s.out.Cols[c] = &s.vecs[c]
	}
	s.out.Len, s.out.Sel = to-from, nil
	return &s.out, nil
}
