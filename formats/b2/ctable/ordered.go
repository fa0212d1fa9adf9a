package ctable

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// Ordered scans (index.SortedLimit): a FULL index holds a column sorted,
// so ORDER BY col [DESC] LIMIT k can stream row positions from it, fetch
// the blocks holding those rows (one cached block per column), apply the
// WHERE to each row and stop after k rows — a handful of blocks instead of
// a sort of the table.
//
// The order is exactly that of a stable sort of the plain scan: the index
// is sorted stably by position, so equal values come in physical order;
// descending, runs of equal values are emitted from the top run down, each
// run forwards. NaN is above every number (numpy sorts it last, DuckDB
// ranks it greatest). NULLs — mask nulls and sentinels are still in the
// index at their stored fill value — are skipped in the sorted stream and
// come last, in physical order, in both directions.

// CanScanOrdered reports whether column col has a usable (non-stale,
// readable) FULL index. Timestamps stored in nanoseconds and read as
// microseconds (TIMESTAMPTZ) are excluded: the conversion merges distinct
// stored values, whose index order would then not be the stable order of
// equal SQL values.
func (t *Table) CanScanOrdered(col int) bool {
	fi := t.usableFull(col)
	if fi == nil {
		return false
	}
	if src := t.srcs[t.cols[col].src]; src.spec.Kind == "timestamp" && src.spec.timeScale()[1] != 1 {
		return false
	}
	return t.loadFull(col, fi) == nil
}

// ScanOrdered produces spec.Cols of the live rows in order of column col,
// ascending or descending, applying every spec.Filter predicate exactly and
// stopping after spec.Limit rows (-1: all). Ties keep physical row order in
// both directions; NaN sorts above every number; NULLs come last. It reads
// lazily: blocks are fetched as rows are pulled. spec.Threads is ignored.
func (t *Table) ScanOrdered(ctx context.Context, spec index.ScanSpec, col int, desc bool) (columnar.Reader, error) {
	if t.st == nil {
		return nil, fmt.Errorf("ctable: %s: scan of a closed table", t.path)
	}
	if !t.CanScanOrdered(col) {
		return nil, fmt.Errorf("ctable: %s: column %d has no usable FULL index", t.path, col)
	}
	r := &orderedReader{t: t, spec: spec, col: col, desc: desc, dec: b2.NewDecoder(),
		cache: map[int]*rowCache{}, limit: spec.Limit}
	for _, c := range spec.Cols {
		if c < 0 || c >= len(t.schema) {
			return nil, fmt.Errorf("ctable: %s: scan of column %d, table has %d", t.path, c, len(t.schema))
		}
		r.schema = append(r.schema, t.schema[c])
	}
	for _, p := range spec.Filter {
		for _, c := range p.Cols(nil) {
			if c < 0 || c >= len(t.schema) {
				return nil, fmt.Errorf("ctable: %s: filter on column %d, table has %d", t.path, c, len(t.schema))
			}
		}
	}
	for _, c := range append(append([]int{col}, spec.Cols...), filterCols(spec.Filter)...) {
		if err := t.srcs[t.cols[c].src].open(t.st, t.nphys); err != nil {
			return nil, tableError(t.path, "", err)
		}
	}
	src := t.srcs[t.cols[col].src]
	r.nullable = src.spec.Nullable || src.spec.HasSent || src.mask != nil
	r.cur = newFullCursor(t.full[src.spec.Name], r.dec)
	r.grain = t.blockRows
	r.touched = make(map[int64]bool)
	_, r.remote = t.IO()
	r.dec.SetScattered(r.remote) // it fetches the blocks it reads next itself (lookAhead)
	r.aheadLo, r.aheadHi = -1, -1
	r.out = columnar.NewBatch(r.types(), 0)
	r.arenas = make([][]byte, len(spec.Cols))
	if r.limit < 0 {
		r.limit = -1
	}
	return r, nil
}

func filterCols(ps []index.Pred) []int {
	var out []int
	for _, p := range ps {
		out = p.Cols(out)
	}
	return out
}

// rowCache holds one decoded block of one column.
type rowCache struct {
	lo  int64
	n   int
	vec *columnar.Vector
	ob  *outBatch
	sc  colScratch
}

// orderedReader is the columnar.Reader of ScanOrdered.
type orderedReader struct {
	t        *Table
	spec     index.ScanSpec
	col      int
	desc     bool
	schema   columnar.Schema
	dec      *b2.Decoder
	cur      *fullCursor
	nullable bool // the order column may hold NULLs: skip them, then emit them last
	grain    int64

	started  bool
	phase    int   // 0: sorted entries, 1: NULL rows in physical order, 2: done
	lo, hi   int64 // entry range still to stream (ascending: lo moves up; descending: hi moves down)
	runLo    int64 // descending: the current run of equal values is [runLo, runHi)
	runHi    int64
	nextPhys int64 // phase 1: next physical row

	pos     []int64 // buffered positions (ascending order of entries)
	posFrom int64   // entry of pos[0]
	posAt   int
	entry   int64 // entry of the current sorted-stream row
	valid   []byte
	validLo int64
	validN  int

	cache   map[int]*rowCache
	touched map[int64]bool // blocks fetched, for ScanStats
	// remote: the table is read from a server; the blocks of entries
	// [aheadLo, aheadHi) of the sorted stream were fetched ahead
	// (ordered_ahead.go). ctx is Next's.
	remote           bool
	aheadLo, aheadHi int64
	ctx              context.Context

	out      *columnar.Batch
	arenas   [][]byte
	limit    int64
	produced int64
	closed   bool
	counted  bool
}

func (r *orderedReader) types() []columnar.Type {
	out := make([]columnar.Type, len(r.schema))
	for i, f := range r.schema {
		out[i] = f.Type
	}
	return out
}

// Schema returns the scanned columns, in spec.Cols order.
func (r *orderedReader) Schema() columnar.Schema { return r.schema }

// start narrows the entry range by the range predicates on the order
// column (every predicate is still checked row by row).
func (r *orderedReader) start() error {
	r.started = true
	r.lo, r.hi = 0, r.cur.fi.n
	for _, p := range r.spec.Filter {
		if p.Op == index.Or || p.Op == index.In || p.Col != r.col {
			continue
		}
		ivs, ok := predIntervals(p, r.t.schema[r.col].Type)
		if !ok || len(ivs) != 1 {
			continue
		}
		lo, hi, err := r.cur.entries(ivs[0])
		if err != nil {
			return tableError(r.t.path, "", err)
		}
		r.lo, r.hi = max(r.lo, lo), min(r.hi, hi)
	}
	r.hi = max(r.hi, r.lo)
	r.runLo, r.runHi = r.hi, r.hi
	return nil
}

// nextPos returns the next candidate physical row of the sorted stream, or
// false when the stream is exhausted.
func (r *orderedReader) nextPos() (int64, bool, error) {
	for r.posAt >= len(r.pos) {
		r.pos, r.posAt = r.pos[:0], 0
		var from, to int64
		if !r.desc {
			if r.lo >= r.hi {
				return 0, false, nil
			}
			from, to = r.lo, min(r.hi, r.lo+1024)
			r.lo = to
		} else {
			if r.runLo >= r.runHi {
				// Next run: the entries equal to the last one left.
				if r.hi <= r.lo {
					return 0, false, nil
				}
				last := r.hi - 1
				if _, err := r.cur.block(last / r.cur.fi.blockLen); err != nil {
					return 0, false, tableError(r.t.path, "", err)
				}
				s, err := r.cur.bound(r.cur.value(last), false)
				if err != nil {
					return 0, false, tableError(r.t.path, "", err)
				}
				r.runLo, r.runHi = max(s, r.lo), r.hi
				r.hi = r.runLo
			}
			from, to = r.runLo, min(r.runHi, r.runLo+1024)
			r.runLo = to
		}
		r.posFrom = from
		var err error
		if r.pos, err = r.cur.positions(r.pos, from, to); err != nil {
			return 0, false, tableError(r.t.path, "", err)
		}
		r.lookAhead(r.ctx, from, to)
	}
	p := r.pos[r.posAt]
	r.entry = r.posFrom + int64(r.posAt)
	r.posAt++
	return p, true, nil
}

// live reports whether physical row p exists and is not deleted.
func (r *orderedReader) live(p int64) (bool, error) {
	t := r.t
	if p < 0 || p >= t.nphys {
		return false, nil
	}
	if known, live := t.liveSpan(p, 1); known {
		return live == 1, nil // _valid_rows need not be read (livespan.go)
	}
	if p < r.validLo || p >= r.validLo+int64(r.validN) {
		lo := p / r.grain * r.grain
		n := int(min(r.grain, t.nphys-lo))
		r.valid = grow(r.valid, n)
		if err := t.valid.ReadItems1D(r.dec, r.valid, lo, n); err != nil {
			return false, tableError(t.path, "_valid_rows.b2nd", err)
		}
		r.validLo, r.validN = lo, n
	}
	return r.valid[p-r.validLo] != 0, nil
}

// fetch returns the vector holding physical row p of schema column c and
// the row's index in it, decoding p's block when it is not cached.
func (r *orderedReader) fetch(c int, p int64) (*columnar.Vector, int, error) {
	t := r.t
	rc := r.cache[c]
	if rc == nil {
		rc = &rowCache{lo: -1, vec: columnar.NewVector(t.schema[c].Type, 0),
			ob: &outBatch{arenas: make([][]byte, 1), aux: make([][]byte, 1)}}
		r.cache[c] = rc
	}
	if rc.lo < 0 || p < rc.lo || p >= rc.lo+int64(rc.n) {
		lo := p / r.grain * r.grain
		n := int(min(r.grain, t.nphys-lo))
		rc.lo = -1
		rc.vec.Reset(n)
		ex := t.cols[c]
		if err := t.srcs[ex.src].read(r.dec, &rc.sc, lo, n, ex.part, rc.vec, rc.ob, 0); err != nil {
			return nil, 0, tableError(t.path, "", err)
		}
		rc.lo, rc.n = lo, n
		r.touched[lo/r.grain] = true
	}
	return rc.vec, int(p - rc.lo), nil
}

// value returns row p of column c.
func (r *orderedReader) value(c int, p int64) (columnar.Value, error) {
	if r.fromIndex(c) {
		return r.cur.vals.Value(int(r.entry - r.cur.blk*r.cur.fi.blockLen)), nil
	}
	v, i, err := r.fetch(c, p)
	if err != nil {
		return columnar.Value{}, err
	}
	return v.Value(i), nil
}

// matches applies every filter predicate to row p exactly.
func (r *orderedReader) matches(p int64) (bool, error) {
	for _, q := range r.spec.Filter {
		ok, err := r.holds(q, p)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

func (r *orderedReader) holds(q index.Pred, p int64) (bool, error) {
	if q.Op == index.Or {
		for _, a := range q.Any {
			ok, err := r.holds(a, p)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	v, err := r.value(q.Col, p)
	if err != nil {
		return false, err
	}
	switch q.Op {
	case index.IsNull:
		return v.Null, nil
	case index.IsNotNull:
		return !v.Null, nil
	}
	return !v.Null && valueIn(q, v), nil
}

// Next returns the next batch of rows in order.
func (r *orderedReader) Next(ctx context.Context) (*columnar.Batch, error) {
	if r.closed {
		return nil, io.EOF
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.ctx = ctx
	if !r.started {
		if err := r.start(); err != nil {
			return nil, err
		}
	}
	want := columnar.MaxBatch
	if r.limit >= 0 {
		want = int(min(int64(want), r.limit-r.produced))
	}
	if want <= 0 || r.phase == 2 {
		r.count()
		return nil, io.EOF
	}
	b := r.out
	for i, v := range b.Cols {
		v.Reset(want)
		r.arenas[i] = r.arenas[i][:0]
	}
	b.Len, b.Sel = 0, nil
	for n := 0; b.Len < want && r.phase < 2; n++ {
		if n%4096 == 4095 {
			// A filter that rejects most rows keeps this loop long:
			// stay cancellable.
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		p, ok, err := r.candidate()
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if err := r.emit(b, p, want); err != nil {
			return nil, err
		}
	}
	if b.Len == 0 {
		r.count()
		return nil, io.EOF
	}
	r.produced += int64(b.Len)
	if st := r.spec.Stats; st != nil {
		atomic.AddInt64(&st.RowsRead, int64(b.Len))
	}
	return b, nil
}

// candidate advances the stream by one row and reports whether that row
// is to be emitted.
func (r *orderedReader) candidate() (int64, bool, error) {
	switch r.phase {
	case 0:
		p, ok, err := r.nextPos()
		if err != nil {
			return 0, false, err
		}
		if !ok {
			r.phase = 1
			if !r.nullable {
				r.phase = 2
			}
			return 0, false, nil
		}
		if ok, err := r.live(p); err != nil || !ok {
			return 0, false, err
		}
		if r.nullable {
			v, err := r.value(r.col, p)
			if err != nil || v.Null {
				return 0, false, err
			}
		}
		ok, err = r.matches(p)
		return p, ok, err
	case 1:
		// NULLs last, in physical order.
		p := r.nextPhys
		if p >= r.t.nphys {
			r.phase = 2
			return 0, false, nil
		}
		r.nextPhys++
		if ok, err := r.live(p); err != nil || !ok {
			return 0, false, err
		}
		v, err := r.value(r.col, p)
		if err != nil || !v.Null {
			return 0, false, err
		}
		ok, err := r.matches(p)
		return p, ok, err
	}
	return 0, false, nil
}

// fromIndex reports whether column c of the current row can be taken from
// the index's sorted values (decoding the values block holding it, one per
// sidecar block, instead of a column block per row): the order column of a
// row of the sorted stream, when it has no NULLs (which the index holds as
// fill values).
func (r *orderedReader) fromIndex(c int) bool {
	if c != r.col || r.phase != 0 || r.nullable {
		return false
	}
	if _, err := r.cur.block(r.entry / r.cur.fi.blockLen); err != nil {
		return false // the column itself still answers
	}
	return true
}

// emit appends row p to b; n is b's capacity.
func (r *orderedReader) emit(b *columnar.Batch, p int64, n int) error {
	k := b.Len
	for i, c := range r.spec.Cols {
		if r.fromIndex(c) {
			b.Cols[i].SetValue(k, n, r.cur.vals.Value(int(r.entry-r.cur.blk*r.cur.fi.blockLen)))
			continue
		}
		v, j, err := r.fetch(c, p)
		if err != nil {
			return err
		}
		out := b.Cols[i]
		out.CopyRow(k, v, j, n)
		if out.Type.Phys() == columnar.PhysBytes && !out.IsNull(k) {
			// The cached block is overwritten by the next fetch: copy the
			// bytes into the batch's own arena.
			a := r.arenas[i]
			s := len(a)
			a = append(a, out.Bytes[k]...)
			out.Bytes[k] = a[s:len(a):len(a)]
			r.arenas[i] = a
		}
	}
	b.Len++
	return nil
}

// count reports the blocks read and skipped, once.
func (r *orderedReader) count() {
	if r.counted {
		return
	}
	r.counted = true
	st := r.spec.Stats
	if st == nil {
		return
	}
	total := (r.t.nphys + r.grain - 1) / r.grain
	skipped := total - int64(len(r.touched))
	st.UnitName = "blocks"
	atomic.AddInt64(&st.UnitsTotal, total)
	atomic.AddInt64(&st.UnitsSkipped, skipped)
	atomic.AddInt64(&st.UnitsDone, int64(len(r.touched)))
	atomic.AddInt64(&st.SkippedBy[index.SortedLimit], skipped)
}

// Close releases the decoder. Safe to call twice.
func (r *orderedReader) Close() error {
	if r.closed {
		return nil
	}
	r.count()
	r.closed = true
	r.dec.Release()
	r.cache = nil
	return nil
}
