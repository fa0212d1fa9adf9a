package executor

import (
	"context"
	"errors"
	"unsafe"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// Spilling window. Window reserves its stored rows and their results from
// the query's memory manager. When refused and every function has the
// same PARTITION BY (Partitioned), the rows held and the rest of the input
// are dealt to spillParts partition files by a hash of the partition key,
// so that each window partition lies whole in one file; each file is then
// computed by a Window of its own, which spills again (by other hash bits)
// if it is still too big. Rows then come out partition file by partition
// file, not in input order. A window without a common PARTITION BY, or one
// partition too big at windowMaxLevel, streams over its sorted input
// instead (window_stream.go) when its functions can; otherwise it fails
// with an out-of-memory error.

// windowMaxLevel bounds the rounds of re-partitioning: rows of one
// PARTITION BY value never split, so a partition too big for the limit
// would otherwise spill forever.
const windowMaxLevel = 4

// valueBytes is what one function result of one row takes (results are
// held as values until the rows are emitted).
var valueBytes = int64(unsafe.Sizeof(columnar.Value{})) + 8

type windowSpill struct {
	parts *partWriter
	files []*spill.File
	dec   []columnar.Vector
	cols  []*columnar.Vector
}

func (w *Window) SetMemory(m *memory.Manager) { w.mem = m }

// MemoryUse adds the partitions' figures to the operator's.
func (w *Window) MemoryUse() (int64, int64) {
	peak, spilled := w.stream.figures(w.parts.figures(w.res.Peak(), w.res.SpilledBytes()))
	return max(peak, w.streamed[0]), spilled + w.streamed[1]
}

// reserve asks for the room of a batch (its stored rows, sort entries and
// results); true means the operator switched to spilling.
func (w *Window) reserve(ctx context.Context, view *columnar.Batch, cols []*columnar.Vector) (bool, error) {
	// The stored rows, their expressions once more as the columns the
	// functions read (window.go), and the results.
	need := chunkBytes(view, cols) + chunkBytes(view, cols[w.nCols:]) + int64(view.Live())*int64(len(w.Funcs))*valueBytes
	err := w.res.Grow(need)
	if err == nil {
		return false, nil
	}
	if w.Partitioned && w.level < windowMaxLevel && spillRefusal(err, w.res.Size(), w.mem) {
		return true, w.startSpill(ctx)
	}
	if w.canStream() && spillRefusal(err, w.res.Size(), w.mem) {
		w.streaming = true
		return true, nil
	}
	var oom *memory.OutOfMemory
	if errors.Is(err, memory.ErrSpill) || errors.As(err, &oom) {
		name := "window"
		if w.Partitioned && w.level >= windowMaxLevel {
			name = "window (one PARTITION BY value too big for the limit)"
		}
		if f := w.unstreamable(); f != nil {
			name += " (" + f.describe() + " does not stream)"
		}
		if oom == nil {
			oom = &memory.OutOfMemory{Need: w.res.Size() + need, Limit: w.mem.Limit()}
		}
		oom.Operator = name
		return false, oom
	}
	return false, err
}

// startSpill deals the rows held to the partitions and frees them.
func (w *Window) startSpill(ctx context.Context) error {
	types := w.Input.Types()
	np := len(w.Funcs[0].Partition)
	sp := &windowSpill{parts: newPartWriter(w.mem, w.res, types, newPartHash(w.level)),
		dec: make([]columnar.Vector, len(types)), cols: make([]*columnar.Vector, len(types))}
	w.spill = sp
	err := w.store.eachBatch(w.types, func(b *columnar.Batch) error {
		return sp.parts.add(ctx, b, b.Cols[:w.nCols], b.Cols[w.nCols:w.nCols+np])
	})
	if err != nil {
		return err
	}
	w.store = newChunkedStore(w.types, 0)
	w.res.Free()
	return nil
}

// spillBatch deals a batch's rows (cols: its columns, then the evaluated
// expressions, the partition keys first).
func (w *Window) spillBatch(ctx context.Context, b *columnar.Batch, cols []*columnar.Vector) error {
	sp := w.spill
	for k, v := range cols[:w.nCols] {
		sp.cols[k] = decodeLive(v, b, &sp.dec[k])
	}
	np := len(w.Funcs[0].Partition)
	return sp.parts.add(ctx, b, sp.cols, cols[w.nCols:w.nCols+np])
}

func (w *Window) finishSpill(ctx context.Context) error {
	sp, types := w.spill, w.Input.Types()
	files, err := sp.parts.finish(ctx)
	sp.files = files
	w.parts.restart(len(files), func(p int) memoryOp {
		f := sp.files[p]
		if f == nil {
			return nil
		}
		sp.files[p] = nil // the partition's scan removes it
		return &Window{Input: &spillScan{f: f, types: types}, Funcs: w.Funcs, Partitioned: true, mem: w.mem, level: w.level + 1}
	})
	return err
}

// nextSpilled returns the rows of the partition files' windows, one file
// after another.
func (w *Window) nextSpilled(ctx context.Context) (*columnar.Batch, error) {
	return w.parts.next(ctx)
}

// dropSpill removes the files written or being written.
func (w *Window) dropSpill() {
	sp := w.spill
	if sp == nil {
		return
	}
	w.parts.end()
	w.spill = nil
	sp.parts.close()
	removeFiles(sp.files)
}
