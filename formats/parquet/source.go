package parquet

import (
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/storage"
)

// Remote files: a Table over storage.Sources reads its footer through the
// source (whose open already fetched the object's tail, where the footer
// lives) and, per row group, asks the source to prefetch exactly the
// column chunks the scan will decode, so that they arrive in a few
// coalesced, parallel requests instead of one small read per page.

// OpenSources opens the Parquet objects srcs as one table named after name
// (as Open names a pattern's table). The table owns the sources: Close
// closes them, and so does a failed OpenSources.
func OpenSources(name string, srcs []storage.Source) (_ *Table, err error) {
	if len(srcs) == 0 {
		return nil, errors.New("parquet: " + name + ": no files")
	}
	t := &Table{name: stem(name)}
	next := 0
	defer func() {
		if err != nil {
			t.Close()
			for _, s := range srcs[next:] {
				s.Close()
			}
		}
	}()
	for _, src := range srcs {
		next++
		rdr, cols, skipped, warnings, err := readFooter(io.NewSectionReader(src, 0, src.Size()), src.Size())
		if err != nil {
			src.Close()
			return nil, fileError(src.Name(), err)
		}
		f := &pqFile{path: src.Name(), size: src.Size(), closer: src, rdr: rdr, meta: rdr.MetaData(),
			warnings: warnings, src: src, legacyV2: legacyV2(rdr.MetaData())}
		if err := t.addFile(f, cols, skipped); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// prefetchUnit has a remote file fetch, ahead of decoding, the column
// chunks of unit u that the scan reads in full: every output column, or
// under a filter the filter columns, and the output columns too once the
// scan has seen that most batches pass rows all over (denseScan; before
// that, or for a selective filter, they are read page by page where rows
// pass, through the offset index, and a whole-chunk prefetch would fetch
// what late materialization skips). It also starts fetching the same
// chunks of the units the scan reads next (up to readAheadBytes of them),
// so that the workers that open them find their bytes cached or on their
// way instead of waiting a round trip each. A no-op for local files.
func (s *scanner) prefetchUnit(ui int) error {
	u := &s.t.units[ui]
	pf := s.t.files[u.file]
	p, ok := pf.src.(storage.Prefetcher)
	if !ok {
		return nil
	}
	ranges, err := s.unitRanges(ui)
	if err != nil {
		return err
	}
	if err := p.Prefetch(s.ctx, ranges); err != nil && s.ctx.Err() == nil {
		return err
	}
	if s.plan == nil {
		return nil
	}
	s.fetchAhead(s.plan.after(ui, s.readAheadUnits(ui)), -1)
	return nil
}

// readAheadUnits is how many units a scan reads ahead from unit ui:
// readAheadUnits, but only undecidedUnits when ui is filtered (its
// statistics do not prove the filter for all its rows) and the scan has
// late-materialized columns and has not seen enough batches to know
// whether it is dense. What it fetches for a unit depends on that
// (unitRanges, denseScan): the filter columns' chunks, with the output
// columns' pages when the scan is or is expected to be dense, in one
// coalesced request per row group. noteBatch starts the full read-ahead
// when the scan decides. A unit whose statistics expect a passing row in
// every batch (expectDense) reads ahead fully at once: what it fetches
// for the next units is what a dense scan fetches, so waiting for the
// decision would only cost a round trip (TPC-H q14 and q15 over S3 waited
// one on their first two lineitem row groups).
func (s *scanner) readAheadUnits(ui int) int {
	if preds, rows := s.unitFilter(ui); (preds != nil || rows != nil) && !s.decided() && s.lateColumns() && !s.expectDense(ui) {
		return undecidedUnits
	}
	return readAheadUnits
}

// filterLeaves returns the leaf columns that preds (and their
// alternatives, Any) test.
func (t *Table) filterLeaves(preds []index.Pred) map[int]bool {
	leaves := map[int]bool{}
	var add func(ps []index.Pred)
	add = func(ps []index.Pred) {
		for _, pr := range ps {
			if pr.Col >= 0 && pr.Col < len(t.cols) {
				leaves[t.cols[pr.Col].leaf] = true
			}
			add(pr.Any)
		}
	}
	add(preds)
	return leaves
}

// undecidedUnits: the units a scan reads ahead before it knows whether
// it is dense: one per worker of a 2-thread scan.
const undecidedUnits = 2

// decided reports whether the scan has seen enough batches (or walked
// enough chunks) for denseScan's answer to be its answer from now on.
func (s *scanner) decided() bool {
	if s.plan == nil {
		return true
	}
	if s.plan.walkedChunks.Load() >= 2 {
		return true
	}
	return s.plan.denseBatches.Load()+s.plan.sparseBatches.Load() >= decideBatches
}

// lateColumns reports whether the scan filters and outputs a column it
// does not filter on, which late materialization reads page by page.
func (s *scanner) lateColumns() bool {
	if len(s.spec.Filter) == 0 || !s.spec.On(index.LateMaterialization) {
		return false
	}
	filtered := s.t.filterLeaves(s.spec.Filter)
	for _, c := range s.cols {
		if c.nested == nil && !filtered[c.leaf] {
			return true
		}
	}
	return false
}

// fetchAhead has the sources of units fetch ahead, without waiting, the
// ranges unitRanges gives for them, in order, until readAheadBytes of
// them, or, when rows >= 0, only the units holding the first rows rows.
func (s *scanner) fetchAhead(units []int, rows int64) {
	byFile := map[storage.Prefetcher][]storage.Range{}
	var bytes int64
	limited := rows >= 0
	for _, next := range units {
		if limited && rows <= 0 {
			break
		}
		nf := s.t.files[s.t.units[next].file]
		np, ok := nf.src.(storage.Prefetcher)
		if !ok {
			continue
		}
		rs, err := s.unitRanges(next)
		if err != nil {
			break // left to the reader, which reports it
		}
		byFile[np] = append(byFile[np], rs...)
		for _, r := range rs {
			bytes += r.Len
		}
		rows -= s.t.units[next].rows
		if bytes >= readAheadBytes {
			break
		}
	}
	for np, rs := range byFile {
		np.PrefetchAhead(rs)
	}
}

// A scan reads ahead the units after the one a worker opens, up to
// readAheadBytes of their chunks or readAheadUnits units: enough requests
// in flight that a scan over a server 20 ms away does not wait for each
// unit (a 4.5 MiB row group decodes in a few milliseconds), within the
// half of a source's range cache reads ahead may claim. 64 MiB: TPC-H
// q15 over S3 at 20 ms reads its 54 MiB of lineitem in one wave of
// requests where 32 MiB took three (two threads decode a round trip's
// worth faster than the window slid). The unit bound only keeps a file of
// very many small row groups from queueing thousands of requests: at 64
// the 82 row groups of the 10M-row events file (4.5 MiB each) went out in
// three waves of requests when their 38 MiB of user_id could come in one.
const (
	readAheadBytes = 64 << 20
	readAheadUnits = 256
)

// TailBytes is how much of a remote Parquet file's end its first request
// should fetch (storage.Config.WithTail): the footer and, in front of it
// where writers put them, the column and offset indexes a filtered scan
// reads next. TPC-H SF1's lineitem (200 MB, 49 row groups) has 30 KiB of
// footer after 230 KiB of page index: with 256 KiB, every filtered query
// on it waited a second round trip before its first data request. The
// page index is about 0.25% of a file (0.9 MiB of the 372 MB, 82-row-group
// events file, which waited that round trip at 512 KiB): 1 MiB covers
// files up to about 400 MB, and costs a point lookup on a large file half
// a MiB more of its first request, not another round trip.
const TailBytes = 1 << 20

// after returns up to k units that the scan reads after unit ui.
func (pl *scanPlan) after(ui, k int) []int {
	pl.posOnce.Do(func() {
		pl.pos = make(map[int]int, len(pl.read))
		for i, u := range pl.read {
			pl.pos[u] = i
		}
	})
	i, ok := pl.pos[ui]
	if !ok {
		return nil
	}
	return pl.read[i+1 : min(i+1+k, len(pl.read))]
}

// unitRanges returns the byte ranges of the column chunks prefetchUnit
// fetches for unit ui: under a filter, the filter columns' chunks, and
// in a dense scan the output columns' pages that hold the rows the page
// index left (their whole chunks when it left all).
func (s *scanner) unitRanges(ui int) ([]storage.Range, error) {
	u := &s.t.units[ui]
	pf := s.t.files[u.file]
	preds, rows := s.unitFilter(ui)
	leaves := map[int]bool{}
	var paged []*column // output columns fetched by the pages of rows
	if preds != nil || rows != nil {
		leaves = s.t.filterLeaves(preds)
		if s.denseScan(ui) {
			for _, c := range s.cols {
				if c.nested == nil && !leaves[c.leaf] {
					paged = append(paged, c)
				}
			}
		}
	} else {
		for _, c := range s.cols {
			leaves[c.leaf] = true
		}
	}
	rg := pf.meta.RowGroup(u.rg)
	var ranges []storage.Range
	for leaf := range leaves {
		cc, err := rg.ColumnChunk(leaf)
		if err != nil {
			return nil, asCorrupt(err)
		}
		ranges = append(ranges, chunkRange(cc))
	}
	for _, c := range paged {
		pi := s.t.pageIndexOf(ui, c)
		if rows == nil || pi.first == nil {
			cc, err := rg.ColumnChunk(c.leaf)
			if err != nil {
				return nil, asCorrupt(err)
			}
			ranges = append(ranges, chunkRange(cc))
			continue
		}
		ranges = append(ranges, pi.rowsRanges(rows, u.rows)...)
	}
	return ranges, nil
}

// chunkRange is the byte range of a column chunk, dictionary page included.
func chunkRange(cc *metadata.ColumnChunkMetaData) storage.Range {
	start := cc.DataPageOffset()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
		start = cc.DictionaryPageOffset()
	}
	return storage.Range{Off: start, Len: cc.TotalCompressedSize()}
}

// rowsRanges returns the byte ranges of the chunk's pages that hold any of
// rows (sorted, disjoint, within a row group of n rows), and of its
// dictionary page. pi.first must be set.
func (pi *pageIndex) rowsRanges(rows []rowRange, n int64) []storage.Range {
	var out []storage.Range
	if pi.start < pi.off[0] {
		out = append(out, storage.Range{Off: pi.start, Len: pi.off[0] - pi.start})
	}
	last := -1
	for _, r := range rows {
		if r.hi <= r.lo {
			continue
		}
		for j := max(pi.pageOf(r.lo), last+1); j >= 0 && j < len(pi.off) && pi.first[j] < r.hi; j++ {
			out = append(out, storage.Range{Off: pi.off[j], Len: pi.size[j]})
			last = j
		}
	}
	return out
}

// noteBatch records, for denseScan, whether a batch of n rows of a
// filtered unit ui (of rows rows, read with cols) needs the pages of its
// rows nearly all: sel rows pass all over it (at least 1/denseSel of
// them), or some pass and the output columns' pages hold more rows than
// a batch, so that a page with a passing row in each batch is every page.
// The batch that decides the scan starts the read-ahead of the units
// after ui (readAheadUnits).
func (s *scanner) noteBatch(ui int, cols []*fcol, rows int64, sel, n int) {
	if s.plan == nil {
		return
	}
	dense := sel*denseSel >= n
	if !dense && sel > 0 {
		for _, fc := range cols {
			if !fc.filter && len(fc.outs) > 0 && fc.pi.pages() > 0 && rows/int64(fc.pi.pages()) >= int64(n) {
				dense = true
				break
			}
		}
	}
	if dense {
		s.plan.denseBatches.Add(1)
	} else {
		s.plan.sparseBatches.Add(1)
	}
	if s.decided() && s.plan.readAheadStarted.CompareAndSwap(false, true) {
		s.fetchAhead(s.plan.after(ui, readAheadUnits), -1)
	}
}

// denseScan reports whether most batches of the filtered units read so
// far passed rows all over them, so that the late-materialized columns'
// pages are nearly all read anyway: then a remote scan fetches them with
// (and ahead of) the filter columns instead of a round trip later, once
// the filter has run. A selective scan (a point lookup, a rare value)
// keeps fetching only the pages its rows are on.
//
// Until the scan has decided, a unit counts as dense when the statistics
// of its row group expect at least one passing row per batch
// (expectDense): its late columns' pages then come with its filter
// columns, where reading them as the filter selects rows cost a round
// trip per page for every batch with a passing row (TPC-H q14's month of
// l_shipdate over a 20 ms link waited 17 round trips on lineitem's row
// group 0). A point lookup keeps its sparse walk, which fetches the
// pages of its few rows in one round and no other bytes.
func (s *scanner) denseScan(ui int) bool {
	if s.plan == nil {
		return false
	}
	if s.plan.walkedChunks.Load() >= 2 {
		return true
	}
	if !s.decided() {
		return s.expectDense(ui)
	}
	d := s.plan.denseBatches.Load()
	return d >= decideBatches && d >= 3*s.plan.sparseBatches.Load()
}

// expectDense reports whether unit ui's statistics expect its filter to
// pass a row in every batch: the share of rows its range and equality
// predicates keep (index.RangeShare, index.EqShare, values taken as
// uniform over the row group's min/max) times the batch size is at least
// one. False when no predicate can be estimated (strings, no statistics).
func (s *scanner) expectDense(ui int) bool {
	u := &s.t.units[ui]
	preds, _ := s.unitFilter(ui)
	stats := func(col int) (index.Stats, bool) {
		if col < 0 || col >= len(u.stats) || !u.stats[col].ok {
			return index.Stats{}, false
		}
		return u.stats[col].s, true
	}
	share, known, _ := index.RangeShare(preds, stats)
	for _, p := range preds {
		if f, ok := index.EqShare(p, stats); ok {
			share *= f
			known = true
		}
	}
	return known && share*columnar.MaxBatch >= 1
}

// decideBatches: the batches a filtered scan sees before denseScan
// answers.
const decideBatches = 4

// IO reports what the table's remote sources fetched since they were
// opened (planner.IOReporter); ok is false for a table of local files.
func (t *Table) IO() (io index.IOStats, ok bool) {
	for _, f := range t.files {
		src, isSrc := f.closer.(storage.Source)
		if !isSrc || !storage.IsRemote(src.Name()) {
			continue
		}
		st := src.Stats()
		io.Requests += st.Requests
		io.Bytes += st.Bytes
		io.Size += f.size
		ok = true
	}
	return io, ok
}

// prefetchPages has a remote file fetch, in one round of parallel
// requests, the pages that late materialization is about to seek to: for
// each output column read page by page (not a filter column, not read
// whole), the pages holding the selected rows start+sel[i] of the batch,
// and the chunk's dictionary. Each range is widened as the page reader
// reads (streamBuffer bytes a fill, within the chunk), so every fill is
// served from the cache. Where rows pass all over the batch (denseSel),
// the next pagesAhead pages are fetched ahead too, so that the batches
// after it do not wait a round trip at each page they enter. sel nil
// means every row of the batch (a batch decoded whole). A no-op for local
// files and for columns without an offset index.
func (s *scanner) prefetchPages(pf *pqFile, cols []*fcol, start int64, n int, sel []int) error {
	p, ok := pf.src.(storage.Prefetcher)
	if !ok || n == 0 || (sel != nil && len(sel) == 0) {
		return nil
	}
	var ranges, ahead []storage.Range
	fill := func(to *[]storage.Range, off, n, end int64) {
		n = (n + streamBuffer - 1) / streamBuffer * streamBuffer
		*to = append(*to, storage.Range{Off: off, Len: min(n, end-off)})
	}
	dense := sel == nil || len(sel)*denseSel >= n
	for _, fc := range cols {
		pi := fc.pi
		if fc.filter || len(fc.outs) == 0 || len(pi.off) == 0 {
			continue
		}
		if pi.start < pi.off[0] {
			fill(&ranges, pi.start, pi.off[0]-pi.start, pi.end)
		}
		last := -1
		if sel == nil {
			for j := max(pi.pageOf(start), 0); j <= pi.pageOf(start+int64(n)-1); j++ {
				fill(&ranges, pi.off[j], pi.size[j], pi.end)
				last = j
			}
		}
		for _, r := range sel {
			if j := pi.pageOf(start + int64(r)); j != last && j >= 0 {
				fill(&ranges, pi.off[j], pi.size[j], pi.end)
				last = j
			}
		}
		walking, covered := fc.walk.enter(pi, last)
		if covered && s.plan != nil {
			s.plan.walkedChunks.Add(1)
		}
		if (dense || walking) && last >= 0 && last+1 < len(pi.off) {
			// Ask for a window of aheadBytes past the last page, again
			// each time less than half of it is left: large requests, not
			// one per page the batches enter.
			from := pi.off[last+1]
			if fc.aheadTo < from || fc.aheadTo > pi.end {
				fc.aheadTo = from // a new chunk, or reads ahead fell behind
			}
			if fc.aheadTo-from < aheadBytes/2 && fc.aheadTo < pi.end {
				to := min(from+aheadBytes, pi.end)
				ahead = append(ahead, storage.Range{Off: fc.aheadTo, Len: to - fc.aheadTo})
				fc.aheadTo = to
			}
		}
	}
	if err := p.Prefetch(s.ctx, ranges); err != nil && s.ctx.Err() == nil {
		return err
	}
	if len(ahead) > 0 {
		p.PrefetchAhead(ahead)
	}
	return nil
}

// pageWalk follows the pages a column chunk's batches enter. A selection
// too sparse for denseSel (a join's key set that keeps one row in
// thousands) can still have rows all over the chunk: then the batches
// enter page after page, each a round trip of its own over a remote
// source. After walkPages pages entered in order, each within walkGap
// bytes of the one before, the chunk is read ahead like a dense one; a
// lookup that enters one page, or pages far apart, is not. A walk over
// three quarters of a chunk's bytes counts for denseScan: the units after
// it fetch such columns with their filter columns.
type pageWalk struct {
	chunk   int64 // the chunk's start offset: another chunk starts a new walk
	page    int   // the last page entered
	from    int64 // where the current run of pages starts
	run     int   // pages in the current run
	covered bool  // the walk has covered the chunk (reported once)
}

const (
	walkPages = 2
	walkGap   = 256 << 10
)

// enter records that a batch's rows reach page (-1: none) of the chunk pi
// indexes. It reports whether the batches walk the pages in order, and,
// once per chunk, when the walk has covered nearly all of its bytes.
func (w *pageWalk) enter(pi *pageIndex, page int) (walking, covered bool) {
	if w.chunk != pi.start || w.run == 0 {
		*w = pageWalk{chunk: pi.start, page: -1}
	}
	if page >= 0 && page != w.page {
		if w.page >= 0 && page > w.page && pi.off[page]-(pi.off[w.page]+pi.size[w.page]) <= walkGap {
			w.run++
		} else {
			w.run, w.from = 1, pi.off[page]
		}
		w.page = page
	}
	if !w.covered && w.run >= walkPages && 4*(pi.off[w.page]+pi.size[w.page]-w.from) >= 3*(pi.end-pi.start) {
		w.covered = true
		covered = true
	}
	return w.run >= walkPages, covered
}

// denseSel: a batch of which at least 1/denseSel of the rows pass has
// its next pages fetched ahead (a point lookup's single row does not),
// aheadBytes of each column chunk at a time.
const (
	denseSel   = 64
	aheadBytes = 2 << 20
)

// prefetchPlanMeta has remote files fetch, in one round of parallel
// requests, the metadata that planning a filtered scan reads per row
// group apart from the footer: the bloom filters of the filter columns
// (for = and IN) and the page index of the row group (column and offset
// indexes, of every unit whose footer statistics leave it to read).
// Without it each of those is a small read, a round trip per row group,
// one after the other. The page index is fetched as the reader reads it:
// the span of all the row group's column indexes, and of its offset
// indexes, each in one read. When footer statistics leave only a few
// units (a lookup), their filter columns' chunks, which the scan reads
// next, come in the same round.
func (t *Table) prefetchPlanMeta(spec index.ScanSpec) {
	if len(spec.Filter) == 0 {
		return
	}
	byFile := map[storage.Prefetcher][]storage.Range{}
	var chunks []storage.Range
	var chunkFiles []storage.Prefetcher
	left := 0
	for ui := range t.units {
		u := &t.units[ui]
		pf := t.files[u.file]
		p, ok := pf.src.(storage.Prefetcher)
		if !ok {
			continue
		}
		if spec.On(index.BlockPruning) {
			vs := make([]index.Verdict, len(spec.Filter))
			for k, pr := range spec.Filter {
				vs[k] = t.predVerdict(u, pr)
			}
			if index.Conjunction(vs...) == index.None {
				continue
			}
		}
		left++
		rg := pf.meta.RowGroup(u.rg)
		add := func(off, n int64) {
			if off > 0 && n > 0 {
				byFile[p] = append(byFile[p], storage.Range{Off: off, Len: n})
			}
		}
		for _, pr := range spec.Filter {
			if pr.Col < 0 || pr.Col >= len(t.cols) || t.cols[pr.Col].nested != nil {
				continue
			}
			c := &t.cols[pr.Col]
			if spec.On(index.BloomFilter) && t.bloomMayPrune(u, pr) {
				if cc, err := rg.ColumnChunk(c.leaf); err == nil {
					add(cc.BloomFilterOffset(), int64(cc.BloomFilterLength()))
				}
			}
			if left <= lookupUnits {
				if cc, err := rg.ColumnChunk(c.leaf); err == nil {
					chunks = append(chunks, chunkRange(cc))
					chunkFiles = append(chunkFiles, p)
				}
			}
		}
		ci, oi := pageIndexSpans(rg)
		add(ci.Off, ci.Len)
		add(oi.Off, oi.Len)
	}
	if left <= lookupUnits {
		for i, r := range chunks {
			byFile[chunkFiles[i]] = append(byFile[chunkFiles[i]], r)
		}
	}
	for p, rs := range byFile {
		p.PrefetchAhead(rs)
	}
}

// lookupUnits: a filtered scan whose footer statistics leave at most this
// many units fetches their filter columns with the plan's metadata.
const lookupUnits = 4

// pageIndexSpans returns the byte spans of a row group's column indexes
// and of its offset indexes, as the page index reader reads them (all of
// the row group's columns at once); a zero Range where there are none.
func pageIndexSpans(rg *metadata.RowGroupMetaData) (ci, oi storage.Range) {
	grow := func(r *storage.Range, off, n int64) {
		if off <= 0 || n <= 0 {
			return
		}
		if r.Len == 0 {
			*r = storage.Range{Off: off, Len: n}
			return
		}
		end := max(r.Off+r.Len, off+n)
		r.Off = min(r.Off, off)
		r.Len = end - r.Off
	}
	for i := range rg.NumColumns() {
		if l, ok := rg.ColumnIndexLocation(i); ok {
			grow(&ci, l.Offset, int64(l.Length))
		}
		if l, ok := rg.OffsetIndexLocation(i); ok {
			grow(&oi, l.Offset, int64(l.Length))
		}
	}
	return ci, oi
}
