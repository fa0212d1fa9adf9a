package parquet

import (
	"context"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// ScanUnits plans a scan like Scan (pruning counted in spec.Stats) and
// returns one opener per row group to read, in file order, for
// morsel-driven parallel plans: each opener returns a single-threaded reader
// of that row group alone. spec.Threads and spec.Limit are ignored.
func (t *Table) ScanUnits(ctx context.Context, spec index.ScanSpec) ([]func(ctx context.Context) (columnar.Reader, error), error) {
	for _, c := range spec.Cols {
		if c < 0 || c >= len(t.cols) {
			return nil, fmt.Errorf("parquet: %s: scan of column %d, table has %d", t.name, c, len(t.cols))
		}
	}
	pl := t.planScan(spec)
	pl.count(spec.Stats, len(t.units))
	read := pl.read
	unitSpec := spec
	unitSpec.Threads, unitSpec.Limit = 1, -1
	share := newUnitShare()
	out := make([]func(ctx context.Context) (columnar.Reader, error), len(read))
	for i, ui := range read {
		ui := ui
		out[i] = func(ctx context.Context) (columnar.Reader, error) {
			s := &scanner{t: t, spec: unitSpec, stats: unitSpec.Stats, limit: -1, plan: pl, filtering: len(spec.Filter) > 0, share: share}
			for _, c := range unitSpec.Cols {
				s.cols = append(s.cols, &t.cols[c])
				s.types = append(s.types, t.cols[c].field.Type)
				s.schema = append(s.schema, t.cols[c].field)
			}
			for _, f := range t.files {
				if f.closed {
					return nil, fmt.Errorf("parquet: %s: scan of a closed table", f.path)
				}
			}
			s.start(ctx, []int{ui})
			return s, nil
		}
	}
	return out, nil
}

// unitShare is what the readers of one ScanUnits call hand on to each
// other. A consumer reads a unit to its end before opening the next, so a
// finished reader's worker (its decoders, filter state and their scratch
// buffers) and its batches serve a later reader instead of being allocated
// again for every row group: a batch goes back to the free list only when
// its consumer asks for the next one (scanner.Next), which is when the
// batch contract lets go of it. Safe for concurrent readers.
type unitShare struct {
	workers chan *worker
	free    chan *outBatch
}

func newUnitShare() *unitShare {
	return &unitShare{workers: make(chan *worker, 64), free: make(chan *outBatch, 1024)}
}

// worker returns an idle worker for scanner s (nil share: a new one).
func (sh *unitShare) worker(s *scanner) *worker {
	var w *worker
	if sh != nil {
		select {
		case w = <-sh.workers:
		default:
		}
	}
	if w == nil {
		w = &worker{decs: make([]decoder, len(s.cols))}
	}
	w.s = s
	for i, c := range s.cols {
		w.decs[i].c = c
		w.decs[i].want(s.spec, i)
	}
	return w
}

// release hands w (done with its scanner) to later readers, or, without
// a share, returns its decoders' scratch to their pool.
func (sh *unitShare) release(w *worker) {
	if sh == nil {
		for i := range w.decs {
			w.decs[i].cr.release()
		}
		for _, fc := range w.fcols {
			fc.dec.cr.release()
		}
		return
	}
	w.s = nil
	select {
	case sh.workers <- w:
	default:
	}
}
