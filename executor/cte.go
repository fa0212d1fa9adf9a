package executor

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// CTE computes the rows of a WITH entry once for every CTEScan that reads
// them (a common table expression referenced more than once). The first
// Open of any reader runs Input to the end into a spool, under a mutex, so
// readers in parallel pipelines or re-opened subqueries wait for the one
// computation and then replay it; an error (or the cancellation of the
// query) is remembered and returned to every later reader.
//
// The spool (spool.go) reserves the rows from the query's memory manager
// and, when refused, moves them to a spill file that takes the rest of the
// input, so each reader streams the file. The rows (or the file) are held
// until Release, which the query's end calls (QueryRoot).
//
// CTE is an Operator only so that EXPLAIN can show it with its input: its
// own Open computes the rows and its Next yields none.
type CTE struct {
	Input Operator
	Name  string
	Uses  int // references reading it, for EXPLAIN

	mem  *memory.Manager
	res  *memory.Reservation
	mu   sync.Mutex
	done bool
	err  error
	rows *spool
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
	c.rows.drop()
	c.rows = nil
	c.done, c.err = false, nil
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
		c.rows.drop()
		c.rows = nil
	}
	return c.err
}

func (c *CTE) run(ctx context.Context) error {
	c.rows.drop()
	if c.res == nil {
		c.res = c.mem.Reserve("CTE materialization", memory.Spillable)
	}
	c.rows = newSpool(c.Input.Types(), c.mem, c.res)
	if err := c.Input.Open(ctx); err != nil {
		c.Input.Close()
		return err
	}
	err := c.fill(ctx)
	if cerr := c.Input.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = c.rows.finish()
	}
	return err
}

// fill reads the input to the end into the spool.
func (c *CTE) fill(ctx context.Context) error {
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
		if err := c.rows.add(ctx, b); err != nil {
			return err
		}
	}
}

// CTEScan replays the rows of a CTE, in the order they were computed, in
// batches of up to MaxBatch rows (byte payloads shared with the spool's
// store or file reader). Each reference of the CTE has its own CTEScan;
// the batches it returns are valid until its next Next and must not be
// written to.
type CTEScan struct {
	CTE *CTE

	rd *spoolReader
}

func (s *CTEScan) Types() []columnar.Type { return s.CTE.Types() }
func (s *CTEScan) Children() []Operator   { return nil }
func (s *CTEScan) String() string         { return "CTE scan " + s.CTE.Name }

func (s *CTEScan) Close() error {
	s.rd.close()
	s.rd = nil
	return nil
}

func (s *CTEScan) Open(ctx context.Context) error {
	s.Close()
	if err := s.CTE.materialize(ctx); err != nil {
		return err
	}
	rd, err := s.CTE.rows.reader()
	s.rd = rd
	return err
}

func (s *CTEScan) Next(ctx context.Context) (*columnar.Batch, error) {
	if s.rd == nil {
		return nil, io.EOF
	}
	return s.rd.next(ctx)
}
