package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// Spilling the UNION key table of a recursive CTE. The table holds every
// row produced so far. When the memory manager refuses it more, its keys
// move to disk: to spillParts files of rows seen, by a hash of the row,
// and the table is freed. From then on every row a round produces is a
// candidate, written to spillParts files by the same hash. At the end of
// each round, every partition that got candidates is settled by an EXCEPT
// (a SetOp, which has the memory the table gave up, and spills again if
// that is not enough) of its candidates and its seen rows: what it
// outputs is new, once, and goes to the round's work table, to the result
// and to the partition's seen rows (one file more per round). The hash is
// fixed for the query, so a key is always looked for in the partition it
// was kept in.
type recSpill struct {
	mem   *memory.Manager
	res   *memory.Reservation // the key table's: its spilled bytes are counted there
	types []columnar.Type
	h     partHash
	seen  [spillParts][]*spill.File
	cand  *partWriter // the round's candidates
	dec   []columnar.Vector
	cols  []*columnar.Vector

	peak, spilled int64 // the settling SetOps' figures
}

// newRecSpill moves the keys of table to seen files: the caller frees it.
func newRecSpill(ctx context.Context, mem *memory.Manager, res *memory.Reservation, types []columnar.Type, table hashtab.Map) (*recSpill, error) {
	sp := &recSpill{mem: mem, res: res, types: types, h: newPartHash(0),
		dec: make([]columnar.Vector, len(types)), cols: make([]*columnar.Vector, len(types))}
	w := newPartWriter(mem, res, types, sp.h)
	keys := columnar.NewBatch(types, columnar.MaxBatch)
	for from := 0; from < table.Len(); from += columnar.MaxBatch {
		to := min(from+columnar.MaxBatch, table.Len())
		table.Keys(keys.Cols, from, to)
		keys.Len = to - from
		if err := w.add(ctx, keys, keys.Cols, keys.Cols); err != nil {
			w.close()
			return nil, err
		}
	}
	files, err := w.finish(ctx)
	if err != nil {
		return nil, err
	}
	for p, f := range files {
		if f != nil {
			sp.seen[p] = []*spill.File{f}
		}
	}
	sp.cand = newPartWriter(mem, res, types, sp.h)
	return sp, nil
}

// add writes the live rows of b out as candidates.
func (sp *recSpill) add(ctx context.Context, b *columnar.Batch) error {
	for k, v := range b.Cols[:len(sp.cols)] {
		sp.cols[k] = decodeLive(v, b, &sp.dec[k])
	}
	return sp.cand.add(ctx, b, sp.cols, sp.cols)
}

// settle ends a round: each partition's new rows are passed to add and
// kept as seen; a new candidate writer takes the next round's.
func (sp *recSpill) settle(ctx context.Context, add func(*columnar.Batch) error) error {
	files, err := sp.cand.finish(ctx)
	sp.cand = newPartWriter(sp.mem, sp.res, sp.types, sp.h)
	if err != nil {
		return err
	}
	for p, f := range files {
		if f == nil {
			continue
		}
		files[p] = nil
		if err := sp.settlePart(ctx, p, f, add); err != nil {
			removeFiles(files)
			return err
		}
	}
	return nil
}

// compactAt is the number of seen files at which a partition's settling
// rewrites them as one (with the rows it adds): every round reads them
// all, and a file per round would make opening them the cost.
const compactAt = 4

// settlePart outputs the rows of candidates file f not among partition p's
// seen rows, once each, and adds them to those.
func (sp *recSpill) settlePart(ctx context.Context, p int, f *spill.File, add func(*columnar.Batch) error) error {
	w, err := sp.mem.SpillDir().Create(sp.types, sp.mem.MaxTemp())
	if err != nil {
		f.Remove()
		return err
	}
	compact := len(sp.seen[p]) >= compactAt
	var seen Operator = &emptyOp{types: sp.types}
	if len(sp.seen[p]) > 0 {
		seen = &spillScans{files: sp.seen[p], types: sp.types, keep: true}
		if compact {
			seen = &teeOp{Operator: seen, w: w}
		}
	}
	op := &SetOp{Left: &spillScan{f: f, types: sp.types}, Right: seen, Kind: SetExcept, mem: sp.mem, level: 1}
	err = sp.except(ctx, op, w, add)
	op.Close() // removes f
	peak, spilled := op.MemoryUse()
	sp.peak, sp.spilled = max(sp.peak, peak), sp.spilled+spilled
	if err != nil {
		w.Close()
		return err
	}
	nf, err := w.Finish()
	if err != nil {
		return err
	}
	sp.res.Spilled(nf.Bytes)
	if nf.Rows == 0 && !compact {
		nf.Remove()
		return nil
	}
	if compact {
		removeFiles(sp.seen[p])
		sp.seen[p] = nil
	}
	sp.seen[p] = append(sp.seen[p], nf)
	return nil
}

// except runs op, writing the rows it outputs to w and passing them to add.
func (sp *recSpill) except(ctx context.Context, op *SetOp, w *spill.Writer, add func(*columnar.Batch) error) error {
	if err := op.Open(ctx); err != nil {
		return err
	}
	for {
		b, err := op.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err == nil {
			err = w.Write(ctx, b)
		}
		if err == nil {
			err = add(b)
		}
		if err != nil {
			return err
		}
	}
}

// teeOp writes what its input returns to w as it passes it on.
type teeOp struct {
	Operator
	w *spill.Writer
}

func (t *teeOp) Next(ctx context.Context) (*columnar.Batch, error) {
	b, err := t.Operator.Next(ctx)
	if err == nil {
		err = t.w.Write(ctx, b)
	}
	return b, err
}

// drop removes every file of the spill.
func (sp *recSpill) drop() {
	sp.cand.close()
	for p := range sp.seen {
		removeFiles(sp.seen[p])
		sp.seen[p] = nil
	}
}
