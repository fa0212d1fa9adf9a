package executor

import (
	"context"
	"fmt"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
)

// MaxRecursion bounds the iterations of a recursive CTE.
const MaxRecursion = 100000

// WorkTable holds the rows of the last iteration of a recursive CTE; a
// WorkScan in the recursive step reads them.
type WorkTable struct {
	Types []columnar.Type
	rows  [][]columnar.Value
}

// WorkScan reads a WorkTable.
type WorkScan struct {
	Work *WorkTable
	pos  int
}

func (w *WorkScan) Types() []columnar.Type         { return w.Work.Types }
func (w *WorkScan) Children() []Operator           { return nil }
func (w *WorkScan) String() string                 { return "WorkScan" }
func (w *WorkScan) Open(ctx context.Context) error { w.pos = 0; return nil }
func (w *WorkScan) Close() error                   { return nil }

func (w *WorkScan) Next(ctx context.Context) (*columnar.Batch, error) {
	b, pos := valuesBatch(w.Work.Types, w.Work.rows, w.pos)
	w.pos = pos
	if b == nil {
		return nil, io.EOF
	}
	return b, nil
}

// valuesBatch builds a batch of rows[pos:] (at most MaxBatch), or nil.
func valuesBatch(types []columnar.Type, rows [][]columnar.Value, pos int) (*columnar.Batch, int) {
	if pos >= len(rows) {
		return nil, pos
	}
	end := min(pos+columnar.MaxBatch, len(rows))
	n := end - pos
	b := columnar.NewBatch(types, n)
	b.Len = n
	for k := range n {
		for c := range types {
			b.Cols[c].SetValue(k, n, rows[pos+k][c])
		}
	}
	return b, end
}

// RecursiveCTE runs Base once, then Step repeatedly with Work holding the
// rows the previous round added, until a round adds none (or MaxRecursion
// rounds pass: an error). With Distinct (UNION) a row already produced is
// not added again. All rows are held, then emitted.
type RecursiveCTE struct {
	Base, Step Operator
	Work       *WorkTable
	Distinct   bool

	rows [][]columnar.Value
	seen hashtab.Map // Distinct: every row produced
	gids []int32
	pos  int
}

func (r *RecursiveCTE) Types() []columnar.Type { return r.Base.Types() }
func (r *RecursiveCTE) Children() []Operator   { return []Operator{r.Base, r.Step} }
func (r *RecursiveCTE) String() string {
	if r.Distinct {
		return "RecursiveCTE UNION"
	}
	return "RecursiveCTE UNION ALL"
}
func (r *RecursiveCTE) Close() error { r.rows, r.seen = nil, nil; return nil }

func (r *RecursiveCTE) Open(ctx context.Context) error {
	r.rows, r.seen, r.pos = nil, nil, 0
	if r.Distinct {
		r.seen = hashtab.New(r.Base.Types())
	}
	fresh, err := r.drain(ctx, r.Base)
	if err != nil {
		return err
	}
	for round := 0; len(fresh) > 0; round++ {
		if round >= MaxRecursion {
			return fmt.Errorf("recursive CTE did not finish after %d iterations", MaxRecursion)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		r.Work.rows = fresh
		if fresh, err = r.drain(ctx, r.Step); err != nil {
			return err
		}
	}
	r.Work.rows = nil
	return nil
}

// drain runs op to the end and returns the rows it added.
func (r *RecursiveCTE) drain(ctx context.Context, op Operator) ([][]columnar.Value, error) {
	if err := op.Open(ctx); err != nil {
		op.Close()
		return nil, err
	}
	defer op.Close()
	var fresh [][]columnar.Value
	for {
		b, err := op.Next(ctx)
		if err == io.EOF {
			return fresh, nil
		}
		if err != nil {
			return nil, err
		}
		if r.Distinct {
			r.gids = growIDs(r.gids, b.Len)
			// Only the rows not produced before.
			b = &columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: r.seen.Assign(b, b.Cols, r.gids)}
			if len(b.Sel) == 0 {
				continue
			}
		}
		for k := 0; k < b.Live(); k++ {
			i := b.Row(k)
			row := make([]columnar.Value, len(b.Cols))
			for c, v := range b.Cols {
				row[c] = v.Value(i)
			}
			fresh = append(fresh, row)
			r.rows = append(r.rows, row)
		}
		if len(r.rows) > 1<<26 {
			return nil, fmt.Errorf("recursive CTE produced more than %d rows", 1<<26)
		}
	}
}

func (r *RecursiveCTE) Next(ctx context.Context) (*columnar.Batch, error) {
	b, pos := valuesBatch(r.Base.Types(), r.rows, r.pos)
	r.pos = pos
	if b == nil {
		return nil, io.EOF
	}
	return b, nil
}
