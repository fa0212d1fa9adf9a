package executor

import (
	"context"
	"fmt"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
	"github.com/b2sql/b2sql/executor/memory"
)

// MaxRecursion bounds the iterations of a recursive CTE.
const MaxRecursion = 100000

// maxRecursiveRows bounds the rows a recursive CTE produces: a recursion
// that never ends would otherwise fill the temp directory.
const maxRecursiveRows = 1 << 26

// WorkTable holds the rows of the last iteration of a recursive CTE; a
// WorkScan in the recursive step reads them.
type WorkTable struct {
	Types []columnar.Type
	rows  *spool
}

// WorkScan reads a WorkTable.
type WorkScan struct {
	Work *WorkTable
	rd   *spoolReader
}

func (w *WorkScan) Types() []columnar.Type { return w.Work.Types }
func (w *WorkScan) Children() []Operator   { return nil }
func (w *WorkScan) String() string         { return "WorkScan" }
func (w *WorkScan) Close() error           { w.rd.close(); w.rd = nil; return nil }

func (w *WorkScan) Open(ctx context.Context) error {
	w.Close()
	if w.Work.rows == nil {
		return nil
	}
	rd, err := w.Work.rows.reader()
	w.rd = rd
	return err
}

func (w *WorkScan) Next(ctx context.Context) (*columnar.Batch, error) {
	if w.rd == nil {
		return nil, io.EOF
	}
	return w.rd.next(ctx)
}

// RecursiveCTE runs Base once, then Step repeatedly with Work holding the
// rows the previous round added, until a round adds none (or MaxRecursion
// rounds pass: an error). With Distinct (UNION) a row already produced is
// not added again. All rows are held, then emitted.
//
// The rows and the work table are spools (spool.go): reserved from the
// query's memory manager, and moved to spill files when it refuses. The
// key table of UNION is reserved too; when refused it moves to disk, where
// the rows are decided from then on (recursive_spill.go).
type RecursiveCTE struct {
	Base, Step Operator
	Work       *WorkTable
	Distinct   bool

	mem     *memory.Manager
	res     *memory.Reservation // the spools
	keysRes *memory.Reservation // UNION: the key table
	rows    *spool              // every row produced
	seen    hashtab.Map         // Distinct: every row produced (nil once spilled)
	held    int64               // bytes of seen reserved
	spill   *recSpill           // Distinct: the rows seen does not hold
	gids    []int32
	rd      *spoolReader
	// seenRead counts the batches of spilled seen rows read, so that a
	// test can tell a round reads what it needs, not all.
	seenRead int64
}

func (r *RecursiveCTE) Types() []columnar.Type      { return r.Base.Types() }
func (r *RecursiveCTE) Children() []Operator        { return []Operator{r.Base, r.Step} }
func (r *RecursiveCTE) SetMemory(m *memory.Manager) { r.mem = m }
func (r *RecursiveCTE) String() string {
	if r.Distinct {
		return "RecursiveCTE UNION"
	}
	return "RecursiveCTE UNION ALL"
}

// MemoryUse reports the larger peak of the spools and the keys (each is
// reserved apart; the spilled keys' segments reserve with the keys), and
// what both spilled.
func (r *RecursiveCTE) MemoryUse() (int64, int64) {
	return max(r.res.Peak(), r.keysRes.Peak()), r.res.SpilledBytes() + r.keysRes.SpilledBytes()
}

func (r *RecursiveCTE) Close() error {
	r.rd.close()
	r.rd = nil
	r.rows.drop()
	r.Work.rows.drop()
	r.rows, r.Work.rows, r.seen = nil, nil, nil
	if r.spill != nil {
		r.seenRead += r.spill.read
		r.spill.drop()
		r.spill = nil
	}
	r.res.Free()
	r.keysRes.Free()
	r.held = 0
	return nil
}

func (r *RecursiveCTE) Open(ctx context.Context) error {
	r.Close()
	if r.res == nil {
		r.res = r.mem.Reserve("recursive CTE", memory.Spillable)
		r.keysRes = r.mem.Reserve("recursive CTE (UNION) keys", memory.Spillable)
	}
	types := r.Base.Types()
	r.rows = newSpool(types, r.mem, r.res)
	if r.Distinct {
		r.seen = hashtab.New(types)
	}
	fresh := newSpool(types, r.mem, r.res)
	err := r.drain(ctx, r.Base, fresh)
	for round := 0; err == nil && fresh.n > 0; round++ {
		if round >= MaxRecursion {
			err = fmt.Errorf("recursive CTE did not finish after %d iterations", MaxRecursion)
			break
		}
		if err = ctx.Err(); err != nil {
			break
		}
		if err = fresh.finish(); err != nil {
			break
		}
		r.Work.rows.drop()
		r.Work.rows, fresh = fresh, newSpool(types, r.mem, r.res)
		err = r.drain(ctx, r.Step, fresh)
	}
	fresh.drop()
	r.Work.rows.drop()
	r.Work.rows = nil
	if err == nil {
		err = r.rows.finish()
	}
	if err == nil {
		r.rd, err = r.rows.reader()
	}
	return err
}

// drain runs op to the end, adding the rows it produces (the new ones,
// for UNION) to fresh and to the result.
func (r *RecursiveCTE) drain(ctx context.Context, op Operator, fresh *spool) error {
	if err := op.Open(ctx); err != nil {
		op.Close()
		return err
	}
	defer op.Close()
	for {
		b, err := op.Next(ctx)
		if err == io.EOF {
			if r.spill != nil {
				return r.spill.settle(ctx, func(b *columnar.Batch) error { return r.add(ctx, fresh, b) })
			}
			return nil
		}
		if err != nil {
			return err
		}
		if r.spill != nil {
			if err := r.spill.add(ctx, b); err != nil {
				return err
			}
			continue
		}
		if r.Distinct {
			r.gids = growIDs(r.gids, b.Len)
			// Only the rows not produced before.
			b = &columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: r.seen.Assign(b, b.Cols, r.gids)}
			if err := r.accountKeys(ctx, fresh); err != nil {
				return err
			}
			if len(b.Sel) == 0 {
				continue
			}
		}
		if err := r.add(ctx, fresh, b); err != nil {
			return err
		}
	}
}

// add adds the new rows of b to the round's work table and to the result.
func (r *RecursiveCTE) add(ctx context.Context, fresh *spool, b *columnar.Batch) error {
	if err := fresh.add(ctx, b); err != nil {
		return err
	}
	if err := r.rows.add(ctx, b); err != nil {
		return err
	}
	if r.rows.n > maxRecursiveRows {
		return fmt.Errorf("recursive CTE produced more than %d rows", maxRecursiveRows)
	}
	return nil
}

// accountKeys reserves what the UNION key table holds now; when refused,
// the rows held in memory (not the work table being read) move to their
// spill files first, to make room; if that is not enough, the table moves
// to disk and the rows are decided there from the next batch on.
func (r *RecursiveCTE) accountKeys(ctx context.Context, fresh *spool) error {
	size := r.seen.Bytes()
	if size <= r.held {
		return nil
	}
	err := r.keysRes.Grow(size - r.held)
	if err != nil && r.mem.TempDir() != "" && (r.rows.held > 0 || fresh.held > 0) {
		for _, s := range []*spool{r.rows, fresh} {
			if err := s.spillNow(ctx); err != nil {
				return err
			}
		}
		err = r.keysRes.Grow(size - r.held)
	}
	if err != nil && spillRefusal(err, r.held, r.mem) {
		r.spill, err = newRecSpill(ctx, r.mem, r.keysRes, r.Base.Types(), r.seen)
		r.seen = nil
		r.keysRes.Free()
		r.held = 0
		return err
	}
	if err != nil {
		return err
	}
	r.held = size
	return nil
}

func (r *RecursiveCTE) Next(ctx context.Context) (*columnar.Batch, error) {
	if r.rd == nil {
		return nil, io.EOF
	}
	return r.rd.next(ctx)
}
