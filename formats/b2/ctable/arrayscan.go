package ctable

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// SupportsFilter is Inexact for predicates that only read dim columns:
// chunks whose position range cannot match are skipped, the filter stays.
func (t *ArrayTable) SupportsFilter(p index.Pred) index.Support {
	if t.ndims == 0 {
		return index.Unsupported
	}
	for _, c := range p.Cols(nil) {
		if c < 0 || c >= t.ndims {
			return index.Unsupported
		}
	}
	return index.Inexact
}

// chunkRegion returns chunk k's coordinate box [start, stop).
func (t *ArrayTable) chunkRegion(k int) (start, stop []int64) {
	nd := t.arr.NDim()
	start, stop = make([]int64, nd), make([]int64, nd)
	for d := nd - 1; d >= 0; d-- {
		g := t.grid[d]
		c := int64(k) % g
		k /= int(g)
		cs := int64(t.arr.Meta.ChunkShape[d])
		start[d] = c * cs
		stop[d] = min(start[d]+cs, t.arr.Meta.Shape[d])
	}
	return start, stop
}

// plan returns the chunks to read and how many were skipped or proven to
// match entirely.
func (t *ArrayTable) plan(spec index.ScanSpec) (read []int, skipped, allTrue int) {
	n := t.arr.NChunks()
	var preds []index.Pred
	if spec.On(index.BlockPruning) {
		for _, p := range spec.Filter {
			if t.SupportsFilter(p) != index.Unsupported {
				preds = append(preds, p)
			}
		}
	}
	for k := 0; k < n; k++ {
		if len(preds) == 0 {
			read = append(read, k)
			continue
		}
		start, stop := t.chunkRegion(k)
		rows := int64(1)
		for d := range start {
			rows *= stop[d] - start[d]
		}
		stats := func(col int) (index.Stats, bool) {
			if col < 0 || col >= t.ndims {
				return index.Stats{}, false
			}
			return index.Stats{HasMinMax: true, Min: columnar.IntValue(columnar.TInt64, start[col]),
				Max: columnar.IntValue(columnar.TInt64, stop[col]-1), Rows: rows}, true
		}
		vs := make([]index.Verdict, len(preds))
		for i, p := range preds {
			vs[i] = index.VerdictOf(p, stats)
		}
		switch index.Conjunction(vs...) {
		case index.None:
			skipped++
			continue
		case index.All:
			allTrue++
		}
		read = append(read, k)
	}
	return read, skipped, allTrue
}

// DescribeScan says how many chunks a scan with spec reads.
func (t *ArrayTable) DescribeScan(spec index.ScanSpec) string {
	read, _, _ := t.plan(spec)
	s := fmt.Sprintf("chunks=%d/%d", len(read), t.arr.NChunks())
	var used []string
	for _, p := range spec.Filter {
		if spec.On(index.BlockPruning) && t.SupportsFilter(p) != index.Unsupported {
			used = append(used, p.String(t.schema))
		}
	}
	if len(used) > 0 {
		s += " (positions: " + strings.Join(used, " AND ") + ")"
	}
	return s
}

// Scan reads spec.Cols chunk by chunk, chunks in parallel on spec.Threads
// workers, batches of at most 8192 rows. Rows are not filtered.
func (t *ArrayTable) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	if t.arr == nil {
		return nil, fmt.Errorf("ctable: %s: scan of a closed table", t.path)
	}
	var schema columnar.Schema
	for _, c := range spec.Cols {
		if c < 0 || c >= len(t.schema) {
			return nil, fmt.Errorf("ctable: %s: scan of column %d, table has %d", t.path, c, len(t.schema))
		}
		schema = append(schema, t.schema[c])
	}
	read, skipped, allTrue := t.plan(spec)
	if st := spec.Stats; st != nil {
		st.UnitName = "chunks"
		atomic.AddInt64(&st.UnitsTotal, int64(t.arr.NChunks()))
		atomic.AddInt64(&st.UnitsSkipped, int64(skipped))
		atomic.AddInt64(&st.UnitsAllTrue, int64(allTrue))
	}
	newWorker := func() (unitFunc, func()) {
		w := &arrayWorker{t: t, spec: spec, dec: b2.NewDecoder()}
		return w.unit, w.dec.Release
	}
	return startPipeline(ctx, schema, read, spec.Threads, spec.Limit, spec.Ordered, newWorker, unitsDone(spec.Stats, nil)), nil
}

// unitsDone returns the pipeline callback that counts finished units in
// stats (weight(unit) of them, or 1 when weight is nil).
func unitsDone(stats *index.ScanStats, weight func(unit int) int64) func(int) {
	if stats == nil {
		return nil
	}
	return func(u int) {
		w := int64(1)
		if weight != nil {
			w = weight(u)
		}
		atomic.AddInt64(&stats.UnitsDone, w)
	}
}

// ScanUnits plans a scan like Scan (pruning counted in spec.Stats) and
// returns one opener per chunk to read, in order, for morsel-driven
// parallel plans; each opener returns a single-threaded reader of that
// chunk. spec.Threads and spec.Limit are ignored.
func (t *ArrayTable) ScanUnits(ctx context.Context, spec index.ScanSpec) ([]func(ctx context.Context) (columnar.Reader, error), error) {
	if t.arr == nil {
		return nil, fmt.Errorf("ctable: %s: scan of a closed table", t.path)
	}
	var schema columnar.Schema
	for _, c := range spec.Cols {
		if c < 0 || c >= len(t.schema) {
			return nil, fmt.Errorf("ctable: %s: scan of column %d, table has %d", t.path, c, len(t.schema))
		}
		schema = append(schema, t.schema[c])
	}
	read, skipped, allTrue := t.plan(spec)
	if st := spec.Stats; st != nil {
		st.UnitName = "chunks"
		atomic.AddInt64(&st.UnitsTotal, int64(t.arr.NChunks()))
		atomic.AddInt64(&st.UnitsSkipped, int64(skipped))
		atomic.AddInt64(&st.UnitsAllTrue, int64(allTrue))
	}
	out := make([]func(ctx context.Context) (columnar.Reader, error), len(read))
	for i, k := range read {
		out[i] = func(ctx context.Context) (columnar.Reader, error) {
			if t.arr == nil {
				return nil, fmt.Errorf("ctable: %s: scan of a closed table", t.path)
			}
			newWorker := func() (unitFunc, func()) {
				w := &arrayWorker{t: t, spec: spec, dec: b2.NewDecoder()}
				return w.unit, w.dec.Release
			}
			return startPipeline(ctx, schema, []int{k}, 1, -1, true, newWorker, nil), nil
		}
	}
	return out, nil
}

// arrayWorker is one scan goroutine's state.
type arrayWorker struct {
	t    *ArrayTable
	spec index.ScanSpec
	dec  *b2.Decoder
	buf  []byte
}

func (w *arrayWorker) unit(k int, get func() *outBatch, emit func(*outBatch) bool) error {
	t := w.t
	a := t.arr
	isz := a.ItemSize()
	start, stop := t.chunkRegion(k)
	n := int64(1)
	ext := make([]int64, len(start))
	for d := range start {
		ext[d] = stop[d] - start[d]
		n *= ext[d]
	}
	// Only position columns (or none, for COUNT(*)): nothing to decode.
	values := false
	for _, c := range w.spec.Cols {
		values = values || c >= t.ndims
	}
	// 1-D chunks are read in pieces of whole blocks (ReadItems1D decodes
	// only those), so memory stays bounded however large a chunk is; N-d
	// chunks are read whole, their C-order box being the unit of layout.
	piece := n
	if a.NDim() == 1 {
		bi := int64(a.Meta.BlockShape[0])
		piece = min(n, (max(4*batchRows, bi)+bi-1)/bi*bi)
	}
	if need := int(piece) * isz; values && cap(w.buf) < need {
		w.buf = make([]byte, need)
	}
	if st := w.spec.Stats; st != nil && values {
		if cb, err := a.Frame.ChunkCbytes(k); err == nil {
			atomic.AddInt64(&st.BytesRead, int64(cb))
		}
	}
	for off := int64(0); off < n; off += piece {
		m := min(piece, n-off)
		var buf []byte
		if values {
			buf = w.buf[:int(m)*isz]
			var err error
			if a.NDim() == 1 {
				err = a.ReadItems1D(w.dec, buf, start[0]+off, int(m))
			} else {
				err = a.ReadSlice(buf, start, stop)
			}
			if err != nil {
				return fmt.Errorf("ctable: %s: chunk %d: %w", t.path, k, err)
			}
		}
		if st := w.spec.Stats; st != nil {
			atomic.AddInt64(&st.RowsRead, m)
		}
		for j := int64(0); j < m; j += batchRows {
			bn := int(min(batchRows, m-j))
			ob := get()
			ob.b.Len = bn
			for i, c := range w.spec.Cols {
				v := ob.b.Cols[i]
				v.Reset(bn)
				if c < t.ndims {
					fillDim(v.Ints[:bn], c, off+j, start, ext)
					continue
				}
				t.convs[c-t.ndims].decode(buf[int(j)*isz:], bn, v, &ob.arenas[i])
			}
			if !emit(ob) {
				return nil
			}
		}
	}
	return nil
}

// fillDim writes the coordinate along dimension d of items j, j+1, … of a
// C-order box of extent ext whose first corner is start.
func fillDim(out []int64, d int, j int64, start, ext []int64) {
	// Items per step of dimension d, and the run length before it wraps.
	inner := int64(1)
	for e := d + 1; e < len(ext); e++ {
		inner *= ext[e]
	}
	for i := range out {
		idx := j + int64(i)
		out[i] = start[d] + (idx/inner)%ext[d]
	}
}
