package ctable

import (
	"context"
	"github.com/b2sql/b2sql/formats/b2"
	"sort"
	"sync"

	"github.com/b2sql/b2sql/index"
)

// Remote top-k scans, FULL-index lookups and scans that pruning left with a
// few blocks fetch the blocks of the units they read next.
//
// Under a top-k the units are single blocks visited best first, far
// apart in the table; a lookup reads the few blocks holding its rows, and
// so does a scan whose SUMMARY index kept at most fewBlocks (a point or
// small range lookup on a clustered column). Such a scan fetched its
// filter column's block, and only when a row matched the other columns'
// (late materialization, fetchRest): a round trip or two more, to save
// bytes a few blocks are worth less than. The
// frames' read-ahead (b2/readahead.go, which follows reads in order) never
// starts, and each block of each column is two or three requests in a
// row, one column after the other (SELECT * of one row of the 11-column
// events table: 11 round trips). When a worker starts a unit, the blocks
// of that unit and of the next aheadUnits that the plan keeps (and a
// top-k bound does not already rule out) are fetched for every column the
// scan reads, all at once, in the background (prefetchRows,
// ordered_ahead.go); a block the bound rules out by the time a worker
// reaches it was fetched for nothing, which aheadUnits bounds.

// unitsAhead is what a scan fetched ahead: its units in visiting order
// and how far it got.
type unitsAhead struct {
	t     *Table
	pl    *scanPlan
	cols  []int
	units []int
	per   int64
	pos   map[int]int // unit → its index in units

	width int // units fetched ahead (aheadUnits, or more for a seeded top-k)

	mu sync.Mutex
	to int // units[:to] were fetched or asked for
}

// aheadUnits is how many units a remote top-k scan or lookup fetches
// ahead. A top-k whose bound was seeded from the summary (seedTopK) knows
// before reading which units it may need: it fetches all of them ahead,
// up to seededAheadUnits, in one round rather than one per aheadUnits.
const (
	aheadUnits       = 16
	seededAheadUnits = 256
)

// fewBlocks is how many blocks a pruned remote scan may keep for all the
// columns it reads to be fetched at once, its first unit's fetch.
const fewBlocks = aheadUnits

// newUnitsAhead returns the read-ahead of a top-k scan, a lookup or a scan
// pruned to fewBlocks of a remote table, or nil.
func (t *Table) newUnitsAhead(spec index.ScanSpec, pl *scanPlan, units []int, per int64) *unitsAhead {
	few := pl.skipped > 0 && len(pl.verdicts)-pl.skipped <= fewBlocks
	if (pl.topk == nil && pl.lookup == nil && !few) || len(units) == 0 {
		return nil
	}
	if _, remote := t.IO(); !remote {
		return nil
	}
	a := &unitsAhead{t: t, pl: pl, cols: readCols(spec), units: units, per: per, pos: make(map[int]int, len(units)), width: aheadUnits}
	for i, u := range units {
		a.pos[u] = i
	}
	if _, seeded := spec.TopK.Bound(); seeded && pl.topk != nil {
		a.width = min(max(a.candidates(), aheadUnits), seededAheadUnits)
	}
	return a
}

// decoder returns a scan worker's Decoder: one whose reads do not feed
// the frames' read-ahead when the scan fetches its blocks ahead itself.
func (pl *scanPlan) decoder() *b2.Decoder {
	d := b2.NewDecoder()
	d.SetScattered(pl.ahead != nil)
	return d
}

// candidates counts the units holding a block that the plan keeps and the
// bound does not rule out.
func (a *unitsAhead) candidates() int {
	n := 0
	for _, v := range a.units {
		if len(a.blocks(v)) > 0 {
			n++
		}
	}
	return n
}

// blocks returns the row spans of unit v's blocks that the plan keeps and
// the top-k bound does not rule out.
func (a *unitsAhead) blocks(v int) [][2]int64 {
	var spans [][2]int64
	for b := int64(v) * a.per; b < min(int64(v+1)*a.per, int64(len(a.pl.verdicts))); b++ {
		if a.pl.verdicts[b] == index.None || a.pl.topkBeaten(b, a.t.nphys) {
			continue
		}
		spans = append(spans, [2]int64{b * a.pl.grain, min((b+1)*a.pl.grain, a.t.nphys)})
	}
	return spans
}

// after is called when a worker starts unit u: when fewer than half of
// width units after u were fetched, it fetches the blocks of u (if not
// yet) and of the units up to width after it, without waiting for them.
func (a *unitsAhead) after(u int) {
	if a == nil {
		return
	}
	i, ok := a.pos[u]
	if !ok {
		return
	}
	a.mu.Lock()
	if a.to >= i+1+a.width/2 {
		a.mu.Unlock()
		return
	}
	from, to := max(a.to, i), min(len(a.units), i+1+a.width)
	a.to = max(a.to, to)
	a.mu.Unlock()
	var spans [][2]int64
	for _, v := range a.units[from:to] {
		spans = append(spans, a.blocks(v)...)
	}
	if len(spans) > 0 {
		go a.t.rowSources(a.cols).prefetch(context.Background(), spans)
	}
}

// fetchRest, in a remote scan whose late materialization left rows of
// [lo, lo+n) to output, fetches the blocks of the output columns not
// decoded yet (bit i of decoded: output column i) all at once, before
// they are decoded one after the other: the row a lookup found is then
// two or three round trips, not as many per column. Blocks a unit's
// read-ahead fetched are in the cache already, which costs nothing here.
func (w *tableWorker) fetchRest(lo int64, n int, decoded uint64) {
	if !w.pl.remote {
		return
	}
	var rest []int
	for i, c := range w.spec.Cols {
		if i >= 64 || decoded&(1<<i) == 0 {
			rest = append(rest, c)
		}
	}
	if len(rest) > 1 {
		w.t.prefetchRows(context.Background(), rest, [][2]int64{{lo, lo + int64(n)}})
	}
}

// readAheadAll has the frames of a remote scan that reads every block of
// its columns (no block pruned, no top-k or lookup, no LIMIT) start
// fetching their chunk bytes at once (b2.Frame.ReadAheadAll), sharing
// fullScanAhead between them, smallest first so that what a small frame
// (a NULL mask) leaves goes to the others: the frames' own read-ahead
// would find the run only after three reads and grow its window from 512
// KiB. One 47 MiB column of the events .b2z over S3 at 200 ms a request
// went from six data round trips to three.
func (t *Table) readAheadAll(spec index.ScanSpec) {
	var frames []*b2.Frame
	seen := map[int]bool{}
	for _, c := range readCols(spec) {
		if c < 0 || c >= len(t.cols) || seen[t.cols[c].src] {
			continue
		}
		seen[t.cols[c].src] = true
		src := t.srcs[t.cols[c].src]
		for _, a := range []*b2.Array{src.data, src.blob, src.mask} {
			if a != nil && a.Frame != nil {
				frames = append(frames, a.Frame)
			}
		}
	}
	sort.Slice(frames, func(i, j int) bool { return frames[i].Header.Cbytes < frames[j].Header.Cbytes })
	left := int64(fullScanAhead)
	for i, f := range frames {
		w := min(f.Header.Cbytes, left/int64(len(frames)-i))
		f.ReadAheadAll(w)
		left -= w
	}
}

// fullScanAhead is what a full remote scan asks for before its first read,
// over all its frames: the read-ahead share of a source's range cache
// (storage.Config.CacheBytes) less what the frames' next windows
// (aheadMax, 16 MiB) need.
const fullScanAhead = 48 << 20
