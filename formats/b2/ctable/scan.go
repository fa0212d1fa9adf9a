package ctable

import (
	"context"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// usableIndex returns the index that can prune on schema column c, or nil.
// Complex halves are never pruned (their summaries order complex values).
func (t *Table) usableIndex(c int) *summaryIndex {
	if c < 0 || c >= len(t.cols) {
		return nil
	}
	src := t.srcs[t.cols[c].src]
	si := t.indexes[src.spec.Name]
	switch {
	case src.spec.Flavour == flUTF8 && si == nil:
		si = t.stringSummary(src)
	case src.spec.Flavour != flFixed || strings.HasPrefix(src.spec.Kind, "complex"):
		return nil
	}
	if si == nil || si.why != "" || si.ranked {
		return nil // ranks are not values: rankprune.go uses them
	}
	return si
}

// stringSummary returns the string summary of the utf8 column src, opening
// the column (its offsets array carries it, strsummary.go), or nil when
// there is none.
func (t *Table) stringSummary(src *colSource) *summaryIndex {
	if v, ok := t.strSums.Load(src.spec.Name); ok {
		return v.(*summaryIndex)
	}
	if src.open(t.st, t.nphys) != nil {
		return nil // the scan reports the broken column
	}
	si := stringSummaryOf(src.data.Frame, src.spec.Name, t.nphys, t.man.ValueEpoch, src.noNulls())
	v, _ := t.strSums.LoadOrStore(src.spec.Name, si)
	return v.(*summaryIndex)
}

// SupportsFilter is Inexact for predicates on one column that has a usable
// index block summary (blocks that cannot match are skipped) or that a scan
// can evaluate while decoding (late materialization drops rows that cannot
// match); the filter stays above the scan. Unsupported otherwise.
func (t *Table) SupportsFilter(p index.Pred) index.Support {
	c := predColumn(p)
	if c >= 0 && c < len(t.schema) && t.schema[c].Type.ID == columnar.Interval {
		return index.Unsupported // stored as int64 µs, compared as INTERVALs
	}
	if t.usableIndex(c) != nil {
		return index.Inexact
	}
	if c >= 0 && c < len(t.cols) && !strings.HasPrefix(t.srcs[t.cols[c].src].spec.Kind, "complex") &&
		lateEvaluable(p, t.schema[c].Type) {
		return index.Inexact
	}
	return index.Unsupported
}

// pruner is a predicate with the index that decides it.
type pruner struct {
	p   index.Pred
	col int
	si  *summaryIndex
	// all[b]: the index proves p true on every row of block b, so that
	// late materialization does not evaluate it there (scan_late.go).
	all []bool
	fi  int // position of p in spec.Filter
	// ranks, when not nil, are the rank ranges [lo, hi) of a utf8 column
	// that p matches: si is then a summary of ranks (rankprune.go).
	ranks [][2]int64
}

// scanPlan is what a scan reads: the grain and verdict of every block.
type scanPlan struct {
	grain    int64 // rows per block
	verdicts []index.Verdict
	skipped  int
	allTrue  int
	pruners  []pruner
	notes    []string    // indexes present but not used, for DescribeScan
	topk     []topkBound // the top-k or MIN/MAX bounds with their columns' summaries (top-k pruning), or nil
	late     []latePred  // predicates evaluated before the other columns are decoded

	lookup        *lookupPlan // FULL-index lookup (lookup.go), nil when none
	lookupSkipped int

	ahead  *unitsAhead // a remote top-k scan's blocks fetched ahead (scan_ahead.go), or nil
	remote bool        // the table is read from a server
}

// plan loads the sidecars the filter needs and decides every block.
func (t *Table) plan(spec index.ScanSpec) (*scanPlan, error) {
	pl := &scanPlan{grain: t.blockRows}
	if spec.On(index.BlockPruning) {
		for fi, p := range spec.Filter {
			c := predColumn(p)
			si := t.usableIndex(c)
			if si == nil {
				if pr, ok := t.rankPruner(p, c, fi, pl); ok {
					if len(pl.pruners) == 0 {
						pl.grain = pr.si.segLen
					}
					pl.pruners = append(pl.pruners, pr)
					continue
				}
				if c >= 0 && c < len(t.cols) {
					src := t.srcs[t.cols[c].src]
					name := src.spec.Name
					x := t.indexes[name]
					if x == nil && src.spec.Flavour == flUTF8 {
						x = t.stringSummary(src)
					}
					if x != nil && x.why != "" {
						pl.notes = append(pl.notes, fmt.Sprintf("index %s %s", name, x.why))
					}
				}
				continue
			}
			src := t.srcs[t.cols[c].src]
			if err := src.open(t.st, t.nphys); err != nil {
				return nil, tableError(t.path, "", err) // err names the member
			}
			if err := si.load(t.st, t.nphys, src, t.schema[c].Type); err != nil {
				// The index only saves work: a damaged sidecar costs the
				// pruning (shown by EXPLAIN), not the query.
				name := t.srcs[t.cols[c].src].spec.Name
				pl.notes = append(pl.notes, fmt.Sprintf("index %s unreadable: %v", name, err))
				continue
			}
			if len(pl.pruners) == 0 {
				pl.grain = si.segLen
			}
			pl.pruners = append(pl.pruners, pruner{p: p, col: c, si: si, fi: fi})
		}
	}
	t.topkSetup(spec, pl)
	pl.late = t.latePreds(spec)
	nblocks := (t.nphys + pl.grain - 1) / pl.grain
	pl.verdicts = make([]index.Verdict, nblocks)
	if len(pl.pruners) == 0 {
		return pl, t.planLookup(spec, pl)
	}
	vs := make([]index.Verdict, len(pl.pruners))
	for i := range pl.pruners {
		pl.pruners[i].all = make([]bool, nblocks)
	}
	// A block is all-match only if every pushed predicate has an index
	// that proves it there.
	decided := len(pl.pruners) == len(spec.Filter)
	for b := range pl.verdicts {
		lo := int64(b) * pl.grain
		hi := min(lo+pl.grain, t.nphys)
		for i, pr := range pl.pruners {
			if pr.ranks != nil {
				vs[i] = pr.si.rankVerdict(pr.ranks, lo, hi)
			} else {
				vs[i] = pr.si.verdict(pr.p, pr.col, lo, hi)
			}
			pr.all[b] = vs[i] == index.All
		}
		v := index.Conjunction(vs...)
		if v == index.All && !decided {
			v = index.Maybe
		}
		pl.verdicts[b] = v
		switch v {
		case index.None:
			pl.skipped++
		case index.All:
			pl.allTrue++
		}
	}
	for i := range pl.late {
		for _, pr := range pl.pruners {
			if pr.fi == pl.late[i].fi {
				pl.late[i].all = pr.all
			}
		}
	}
	return pl, t.planLookup(spec, pl)
}

// DescribeScan says, without reading column data, which blocks a scan with
// spec reads and which index decides it, e.g.
// "blocks=1/4 (summary index on u16)" or "blocks=2/2 (index x stale)".
func (t *Table) DescribeScan(spec index.ScanSpec) string {
	pl, err := t.plan(spec)
	if err != nil {
		return "error: " + err.Error()
	}
	s := fmt.Sprintf("blocks=%d/%d", len(pl.verdicts)-pl.skipped, len(pl.verdicts))
	var notes []string
	seen := map[string]bool{}
	for _, pr := range pl.pruners {
		name := t.srcs[t.cols[pr.col].src].spec.Name
		if !seen[name] {
			seen[name] = true
			kind := pr.si.kind
			if pr.ranks != nil {
				kind += " index ranks"
			} else {
				kind += " index"
			}
			notes = append(notes, fmt.Sprintf("%s on %s", kind, name))
		}
	}
	if n := pl.lookupNote(); n != "" {
		notes = append(notes, n)
	}
	notes = append(notes, pl.notes...)
	sort.Strings(notes[len(notes)-len(pl.notes):])
	if pl.topk != nil {
		names := make([]string, len(pl.topk))
		for i, tb := range pl.topk {
			names[i] = t.schema[tb.b.Col].Name
		}
		notes = append(notes, fmt.Sprintf("%s on %s", index.TopKPruning, strings.Join(names, ", ")))
	}
	if len(pl.late) > 0 && len(pl.late) < len(spec.Cols) {
		notes = append(notes, index.LateMaterialization.String())
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}

// Scan reads spec.Cols of the live rows in units of up to 8192 physical
// rows, on spec.Threads workers (batches in physical order with one
// thread, a Limit or spec.Ordered). Blocks whose index summary proves a filter
// predicate false are skipped unless spec.On(index.BlockPruning) is false; rows are not filtered.
func (t *Table) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	return t.scan(ctx, spec, 0, -1)
}

// scan is Scan reading blocks [first, last) of blockRows rows only
// (ScanFrom; last < 0: to the end).
func (t *Table) scan(ctx context.Context, spec index.ScanSpec, first, last int64) (columnar.Reader, error) {
	schema, pl, units, per, err := t.prepare(spec, first, last)
	if err != nil {
		return nil, err
	}
	newWorker := func() (unitFunc, func()) {
		w := &tableWorker{t: t, spec: spec, pl: pl, per: per, dec: pl.decoder(),
			scratch: make(map[int]*colScratch)}
		return w.unit, w.dec.Release
	}
	return startPipeline(ctx, schema, units, spec.Threads, spec.Limit, spec.Ordered, newWorker,
		unitsDone(spec.Stats, func(u int) int64 { return pl.liveBlocks(u, per) })), nil
}

// skipBlocks decides None the blocks of the plan that lie wholly outside
// blocks [first, last) of blockRows rows (ScanFrom; last < 0: no end),
// counted as skipped.
func (pl *scanPlan) skipBlocks(blockRows, first, last int64) {
	lo, hi := blockRows*first, blockRows*last
	for b := range pl.verdicts {
		start, end := int64(b)*pl.grain, int64(b+1)*pl.grain
		if end > lo && (last < 0 || start < hi) {
			continue
		}
		switch pl.verdicts[b] {
		case index.None:
			continue
		case index.All:
			pl.allTrue--
		}
		pl.verdicts[b] = index.None
		pl.skipped++
	}
}

// units groups the blocks into units of whole blocks of at most batchRows
// rows (at least one block), so that pruning and batching share
// boundaries, and returns the units with a surviving block.
func (pl *scanPlan) units() (units []int, per int64) {
	per = max(1, batchRows/pl.grain)
	if pl.topk != nil {
		// Under a top-k every unit is one block, ordered best first: a
		// worker's first unit is then the best block it can get, whose
		// rows let the top-k publish its bound before the worker asks
		// about the next one. Units of many small blocks made the skips
		// depend on timing (both workers deep in their first unit before
		// any bound existed).
		per = 1
	}
	for u := int64(0); u*per < int64(len(pl.verdicts)); u++ {
		if pl.liveBlocks(int(u), per) > 0 {
			units = append(units, int(u))
		}
	}
	return units, per
}

// liveBlocks counts the blocks of unit u that are not skipped.
func (pl *scanPlan) liveBlocks(u int, per int64) int64 {
	n := int64(0)
	for b := int64(u) * per; b < min(int64(u+1)*per, int64(len(pl.verdicts))); b++ {
		if pl.verdicts[b] != index.None {
			n++
		}
	}
	return n
}

// ScanUnits plans a scan like Scan (pruning counted in spec.Stats, in
// blocks) and returns one opener per unit of surviving blocks, in table
// order, for morsel-driven parallel plans; each opener returns a
// single-threaded reader of that unit. spec.Threads and spec.Limit are
// ignored. A unit may hold several blocks: its reader adds the extra ones
// to spec.Stats.UnitsDone when it ends, so that progress counts blocks.
func (t *Table) ScanUnits(ctx context.Context, spec index.ScanSpec) ([]func(ctx context.Context) (columnar.Reader, error), error) {
	schema, pl, units, per, err := t.prepare(spec, 0, -1)
	if err != nil {
		return nil, err
	}
	// Each unit gets a reader of its own, but their workers (a decoder
	// with its chunk and block buffers, column scratch, the batch) come
	// from one pool per scan: allocating and clearing them per 8192-row
	// unit cost more CPU than decoding.
	var pool sync.Pool
	views := t.viewFrames(spec.Cols) <= b2.BlockCacheSlots
	types := make([]columnar.Type, len(schema))
	for i, f := range schema {
		types[i] = f.Type
	}
	// The unit queue counts 1 per unit; add the unit's other blocks.
	done := unitsDone(spec.Stats, func(u int) int64 { return pl.liveBlocks(u, per) - 1 })
	out := make([]func(ctx context.Context) (columnar.Reader, error), len(units))
	for i, u := range units {
		out[i] = func(ctx context.Context) (columnar.Reader, error) {
			if t.st == nil {
				return nil, fmt.Errorf("ctable: %s: scan of a closed table", t.path)
			}
			w, _ := pool.Get().(*tableWorker)
			if w == nil {
				w = &tableWorker{t: t, spec: spec, pl: pl, per: per, dec: pl.decoder(),
					scratch: make(map[int]*colScratch), ob: newOutBatch(types), views: views}
			}
			release := func() {
				w.dec.Release()
				w.reuse()
				pool.Put(w)
			}
			return newUnitReader(schema, u, w, release, done), nil
		}
	}
	return out, nil
}

// tableWorker is one scan goroutine's state.
type tableWorker struct {
	t       *Table
	spec    index.ScanSpec
	pl      *scanPlan
	per     int64
	dec     *b2.Decoder
	valid   []byte
	sel     []int               // late materialization: rows still matching
	spare   *outBatch           // a batch taken from get but never emitted
	scratch map[int]*colScratch // by source
	ob      *outBatch           // the batch of a unit reader (ScanUnits)
	// views: columns may be read as views of decoded blocks (blockview.go).
	// Only a unit reader sets it: its consumer is done with a batch when
	// it asks for the next, before the worker decodes again, whereas a
	// pipeline's workers decode ahead of batches still in flight.
	views bool
	err   error
}

// reuse readies w for another unit reader of the same scan: it keeps the
// buffers, drops what belonged to the last reader (its batch, its error)
// and the cached varlen batches.
func (w *tableWorker) reuse() {
	w.spare, w.err = nil, nil
	for _, sc := range w.scratch {
		sc.batchItems, sc.batchVals = nil, nil
	}
}

// unit reads the surviving blocks of unit u, one batch per run of
// consecutive surviving blocks (split at batchRows).
func (w *tableWorker) unit(u int, get func() *outBatch, emit func(*outBatch) bool) error {
	cur := w.cursor(u)
	for {
		lo, n, ok := cur.next()
		if !ok {
			return nil
		}
		if !w.rows(lo, n, get, emit) {
			return w.err
		}
	}
}

// unitCursor walks the batches of one unit: runs of consecutive
// surviving blocks, cut at batchRows rows.
type unitCursor struct {
	w         *tableWorker
	b, b1     int64 // next block to look at, end of the unit
	start, hi int64 // rows of the current run still to read
}

func (w *tableWorker) cursor(u int) unitCursor {
	w.pl.ahead.after(u) // remote top-k scans (scan_ahead.go)
	b0 := int64(u) * w.per
	return unitCursor{w: w, b: b0, b1: min(b0+w.per, int64(len(w.pl.verdicts)))}
}

// next returns the rows of the next batch; false when the unit is done.
func (c *unitCursor) next() (lo int64, n int, ok bool) {
	pl, w := c.w.pl, c.w
	for c.start >= c.hi {
		// A block is read if it survives pruning and the top-k bound
		// (asked once per block, where the block starts, so that the
		// bound is the latest).
		for c.b < c.b1 && (pl.verdicts[c.b] == index.None || w.topkSkips(c.b)) {
			c.b++
		}
		if c.b >= c.b1 {
			return 0, 0, false
		}
		// Runs of consecutive blocks share batches, unless a block-level
		// decision is still to come: the top-k bound (per block, as it
		// improves) or late materialization (whose batches are blocks, so
		// that a block without a match leaves its other columns unread).
		e := c.b + 1
		for e < c.b1 && pl.verdicts[e] != index.None && pl.topk == nil && len(pl.late) == 0 {
			e++
		}
		c.start, c.hi = c.b*pl.grain, min(e*pl.grain, w.t.nphys)
		c.b = e
	}
	lo, n = c.start, int(min(batchRows, c.hi-c.start))
	c.start += int64(n)
	return lo, n, true
}

// liveRows counts the nonzero bytes of a _valid_rows mask, eight at a time
// where all eight are 1 (a table without deletions is all 1s).
func liveRows(valid []byte) int {
	const ones = 0x0101010101010101
	live, i := 0, 0
	for ; i+8 <= len(valid); i += 8 {
		if binary.LittleEndian.Uint64(valid[i:]) == ones {
			live += 8
			continue
		}
		for _, b := range valid[i : i+8] {
			live += b2i(b != 0)
		}
	}
	for _, b := range valid[i:] {
		live += b2i(b != 0)
	}
	return live
}

// rows reads physical rows [lo, lo+n) into one batch and emits it; it
// returns false to stop (error in w.err, or cancellation).
func (w *tableWorker) rows(lo int64, n int, get func() *outBatch, emit func(*outBatch) bool) bool {
	t := w.t
	known, live := t.liveSpan(lo, n)
	if !known || (live > 0 && w.pl.lookup != nil) {
		// The mask: read, or all ones when known, for the index lookup
		// to clear the rows it does not name.
		w.valid = grow(w.valid, n)
		if known {
			fillOnes(w.valid[:n])
		} else if err := t.valid.ReadItems1D(w.dec, w.valid, lo, n); err != nil {
			w.err = tableError(t.path, "_valid_rows.b2nd", err)
			return false
		}
		w.pl.restrict(lo, w.valid)
		live = liveRows(w.valid)
	}
	if live == 0 {
		return true // every row deleted: nothing to decode
	}
	ob := w.spare
	if ob == nil {
		ob = get()
	}
	w.spare = nil
	ob.b.Len = n
	ob.b.Sel = nil
	if live < n {
		ob.sel = ob.sel[:0]
		for i, b := range w.valid {
			if b != 0 {
				ob.sel = append(ob.sel, i)
			}
		}
		ob.b.Sel = ob.sel
	}
	// Late materialization: the predicate columns first; the others only
	// if some live row may still match.
	var decoded uint64 // bit i: output column i decoded (first 64 columns)
	none := false      // no live row matches the predicates
	for _, lp := range w.pl.late {
		if lp.proven(lo, n, w.pl.grain) {
			continue // true on every row here: nothing to evaluate
		}
		if decoded&(1<<lp.out) == 0 {
			if !w.decode(lp.out, lo, n, ob) {
				return false
			}
			decoded |= 1 << lp.out
		}
		w.sel = matchSel(lp.p, ob.b.Cols[lp.out], ob.b.Sel, n, w.sel[:0])
		ob.sel = append(ob.sel[:0], w.sel...)
		ob.b.Sel = ob.sel
		if none = len(ob.sel) == 0; none {
			break
		}
	}
	if none {
		w.account(lo, n, live, decoded)
		w.spare = ob // not emitted: the next batch reuses it
		if st := w.spec.Stats; st != nil {
			blocks := (lo+int64(n)-1)/w.pl.grain - lo/w.pl.grain + 1
			atomic.AddInt64(&st.SkippedBy[index.LateMaterialization], blocks)
		}
		return true // nothing matches: the other columns stay compressed
	}
	if w.pl.ahead != nil || (len(w.pl.late) > 0 && w.pl.remote) {
		w.fetchRest(lo, n, decoded) // scan_ahead.go
	}
	for i := range w.spec.Cols {
		if i < 64 && decoded&(1<<i) != 0 {
			continue
		}
		if !w.decode(i, lo, n, ob) {
			return false
		}
	}
	if len(w.pl.late) > 0 && len(ob.b.Sel)*4 >= live*3 {
		// Most live rows match: hand them all over, as without late
		// materialization (the Filter above re-checks them anyway), since
		// dense batches run faster above than a long selection.
		ob.b.Sel = nil
		if live < n {
			ob.sel = ob.sel[:0]
			for i, b := range w.valid[:n] {
				if b != 0 {
					ob.sel = append(ob.sel, i)
				}
			}
			ob.b.Sel = ob.sel
		}
	}
	w.account(lo, n, live, ^uint64(0))
	return emit(ob)
}

// decode fills output column i of ob with physical rows [lo, lo+n); false
// on error (in w.err).
func (w *tableWorker) decode(i int, lo int64, n int, ob *outBatch) bool {
	t := w.t
	ex := t.cols[w.spec.Cols[i]]
	src := t.srcs[ex.src]
	sc := w.scratch[ex.src]
	if sc == nil {
		sc = &colScratch{}
		w.scratch[ex.src] = sc
	}
	v := ob.b.Cols[i]
	ob.unalias(i)
	v.Reset(n)
	sc.views = w.views
	sc.codes = w.spec.WantsCodes(i)
	sc.codesOnly = sc.codes && !filtersColumn(w.spec, w.spec.Cols[i])
	if err := src.read(w.dec, sc, lo, n, ex.part, v, ob, i); err != nil {
		w.err = tableError(t.path, "", err) // err names the member and rows
		return false
	}
	return true
}

// account adds to spec.Stats the rows of a batch and the bytes of the
// columns it decoded (bit i of decoded: output column i; columns past 64
// count as decoded): on disk (estimated from the compression ratio) and
// decompressed.
func (w *tableWorker) account(lo int64, n, live int, decoded uint64) {
	st := w.spec.Stats
	if st == nil {
		return
	}
	t := w.t
	atomic.AddInt64(&st.RowsRead, int64(live))
	disk := float64(n) * t.validRatio
	raw := float64(n)
	for i, c := range w.spec.Cols {
		if i < 64 && decoded&(1<<i) == 0 {
			continue
		}
		src := t.srcs[t.cols[c].src]
		disk += float64(n) * src.rowBytes * src.ratio
		raw += float64(n) * src.rowBytes
	}
	atomic.AddInt64(&st.BytesRead, int64(disk))
	atomic.AddInt64(&st.BytesDecompressed, int64(raw))
}

// filtersColumn reports whether a predicate of spec reads table column c
// (then the scan's own checks need the column's values, not only codes).
func filtersColumn(spec index.ScanSpec, c int) bool {
	for _, p := range spec.Filter {
		for _, pc := range p.Cols(nil) {
			if pc == c {
				return true
			}
		}
	}
	return false
}

// prepare is what Scan and ScanUnits share: check the columns and open
// them, plan the blocks (pruning, index lookup), count the plan in
// spec.Stats and cut the surviving blocks into units, best first under a
// top-k.
func (t *Table) prepare(spec index.ScanSpec, first, last int64) (schema columnar.Schema, pl *scanPlan, units []int, per int64, err error) {
	if t.st == nil {
		return nil, nil, nil, 0, fmt.Errorf("ctable: %s: scan of a closed table", t.path)
	}
	for _, c := range spec.Cols {
		if c < 0 || c >= len(t.schema) {
			return nil, nil, nil, 0, fmt.Errorf("ctable: %s: scan of column %d, table has %d", t.path, c, len(t.schema))
		}
	}
	t.openAtOnce(spec)
	for _, c := range spec.Cols {
		schema = append(schema, t.schema[c])
		src := t.srcs[t.cols[c].src]
		if err := src.open(t.st, t.nphys); err != nil {
			return nil, nil, nil, 0, tableError(t.path, "", err) // err names the member
		}
	}
	pl, err = t.plan(spec)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	pl.skipBlocks(t.blockRows, first, last)
	if st := spec.Stats; st != nil {
		st.UnitName = "blocks"
		atomic.AddInt64(&st.UnitsTotal, int64(len(pl.verdicts)))
		atomic.AddInt64(&st.UnitsSkipped, int64(pl.skipped))
		atomic.AddInt64(&st.SkippedBy[index.BlockPruning], int64(pl.skipped))
		atomic.AddInt64(&st.UnitsAllTrue, int64(pl.allTrue))
	}
	pl.countLookup(spec.Stats)
	units, per = pl.units()
	pl.orderTopK(units, per, t.nphys)
	_, pl.remote = t.IO()
	pl.ahead = t.newUnitsAhead(spec, pl, units, per)
	if pl.remote && pl.ahead == nil && pl.skipped == 0 && spec.Limit < 0 {
		t.readAheadAll(spec)
	}
	return schema, pl, units, per, nil
}
