package parquet

import (
	"sort"
	"sync"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// pageIndex is the page index of one column chunk, checked and converted
// once: where each data page starts (rows and bytes), and per page the
// statistics of the ColumnIndex in the column's SQL type.
//
// first is nil when the chunk has no usable OffsetIndex: then pages cannot
// be located, so the chunk is read from its start and skipped rows are
// decoded and dropped. stats is nil when the chunk has no usable
// ColumnIndex: then no page can be proved empty.
type pageIndex struct {
	first []int64       // first row of each page, strictly increasing from 0
	stats []index.Stats // per page; nil without a ColumnIndex
	// off and size locate each page's bytes (header included); start and
	// end bound the chunk (start is the dictionary page's offset, if any).
	// A remote scan prefetches the pages it will seek to (source.go).
	off, size  []int64
	start, end int64
}

// pages returns how many data pages the chunk has, 0 if unknown.
func (pi *pageIndex) pages() int { return len(pi.first) }

// pageOf returns the page holding row r (pi.first must be set).
func (pi *pageIndex) pageOf(r int64) int {
	return sort.Search(len(pi.first), func(i int) bool { return pi.first[i] > r }) - 1
}

// pageEnd returns the row after the last row of page j.
func (pi *pageIndex) pageEnd(j int, rows int64) int64 {
	if j+1 < len(pi.first) {
		return pi.first[j+1]
	}
	return rows
}

// pageIndexes caches the page indexes of a table's column chunks, read on
// first use (planning or scanning) and kept while the table is open. The
// page index is metadata stored apart from the footer; reading it costs one
// small read per row group.
type pageIndexes struct {
	mu sync.Mutex
	m  map[[2]int]*pageIndex // key: unit, leaf
}

// noPageIndex is what a chunk without a (valid) page index gets.
var noPageIndex = &pageIndex{}

// pageIndexOf returns the page index of column c in unit ui; never nil.
// A missing or malformed page index yields an empty one: it only costs
// pruning, never correctness, so it is not an error.
func (t *Table) pageIndexOf(ui int, c *column) *pageIndex {
	if c.nested != nil {
		return noPageIndex
	}
	key := [2]int{ui, c.leaf}
	t.pidx.mu.Lock()
	pi, ok := t.pidx.m[key]
	t.pidx.mu.Unlock()
	if ok {
		return pi
	}
	pi = t.loadPageIndex(ui, c)
	t.pidx.mu.Lock()
	if t.pidx.m == nil {
		t.pidx.m = map[[2]int]*pageIndex{}
	}
	t.pidx.m[key] = pi
	t.pidx.mu.Unlock()
	return pi
}

// loadPageIndex reads and checks one chunk's page index. arrow-go panics on
// malformed column indexes; that is recovered as "no index".
func (t *Table) loadPageIndex(ui int, c *column) (out *pageIndex) {
	defer func() {
		if recover() != nil {
			out = noPageIndex
		}
	}()
	u := &t.units[ui]
	pf := t.files[u.file]
	if pf.closed {
		return noPageIndex
	}
	rgr, err := pf.rdr.GetPageIndexReader().RowGroup(u.rg)
	if err != nil || rgr == nil {
		return noPageIndex
	}
	oi, err := rgr.GetOffsetIndex(c.leaf)
	if err != nil || oi == nil {
		return noPageIndex
	}
	cc, err := pf.meta.RowGroup(u.rg).ColumnChunk(c.leaf)
	if err != nil {
		return noPageIndex
	}
	locs := oi.GetPageLocations()
	start, end := cc.DataPageOffset(), cc.DataPageOffset()+cc.TotalCompressedSize()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
		start = cc.DictionaryPageOffset()
		end = start + cc.TotalCompressedSize()
	}
	// The offset index steers seeks: accept it only if it describes pages
	// in order, inside the chunk, covering the row group from row 0.
	if len(locs) == 0 || int64(len(locs)) > max(u.rows, 1) {
		return noPageIndex
	}
	first := make([]int64, len(locs))
	off, size := make([]int64, len(locs)), make([]int64, len(locs))
	for i, l := range locs {
		if l == nil || l.CompressedPageSize <= 0 || l.Offset < start || l.Offset+int64(l.CompressedPageSize) > end {
			return noPageIndex
		}
		if (i == 0 && l.FirstRowIndex != 0) || (i > 0 && (l.FirstRowIndex <= first[i-1] || l.Offset <= locs[i-1].Offset)) || l.FirstRowIndex >= max(u.rows, 1) {
			return noPageIndex
		}
		first[i] = l.FirstRowIndex
		off[i], size[i] = l.Offset, int64(l.CompressedPageSize)
	}
	pi := &pageIndex{first: first, off: off, size: size, start: start, end: end}
	ci, err := rgr.GetColumnIndex(c.leaf)
	if err == nil && ci != nil && len(ci.GetNullPages()) == len(locs) {
		pi.stats = pageStats(ci, c, pi, u.rows)
	}
	return pi
}

// pageStats converts a ColumnIndex into per-page Stats of the column's SQL
// type, with the conversions chunkStats applies to row-group statistics.
func pageStats(ci metadata.ColumnIndex, c *column, pi *pageIndex, rows int64) []index.Stats {
	nullPages := ci.GetNullPages()
	var nullCounts []int64
	if ci.IsSetNullCounts() {
		nullCounts = ci.GetNullCounts()
		if len(nullCounts) != len(nullPages) {
			nullCounts = nil
		}
	}
	out := make([]index.Stats, len(nullPages))
	for j := range out {
		s := index.Stats{NullCount: -1, Rows: pi.pageEnd(j, rows) - pi.first[j]}
		if nullCounts != nil && nullCounts[j] >= 0 && nullCounts[j] <= s.Rows {
			s.NullCount = nullCounts[j]
		}
		if nullPages[j] {
			s.NullCount = s.Rows
		} else {
			s.Min, s.Max, s.HasMinMax = pageBounds(ci, c, j)
		}
		out[j] = s
	}
	return out
}

// pageBounds returns page j's min and max in the column's SQL type.
func pageBounds(ci metadata.ColumnIndex, c *column, j int) (lo, hi columnar.Value, ok bool) {
	t := c.field.Type
	switch x := ci.(type) {
	case *metadata.TypedColumnIndex[bool]:
		return columnar.BoolValue(x.MinValues()[j]), columnar.BoolValue(x.MaxValues()[j]), true
	case *metadata.TypedColumnIndex[int32]:
		a, b := x.MinValues()[j], x.MaxValues()[j]
		if c.kind == kUint32 {
			return columnar.IntValue(t, int64(uint32(a))), columnar.IntValue(t, int64(uint32(b))), true
		}
		return columnar.IntValue(t, c.bound(int64(a)*c.mul)), columnar.IntValue(t, c.bound(int64(b)*c.mul)), true
	case *metadata.TypedColumnIndex[int64]:
		a, b := x.MinValues()[j], x.MaxValues()[j]
		if c.kind == kUint64 {
			return columnar.UintValue(uint64(a)), columnar.UintValue(uint64(b)), true
		}
		return columnar.IntValue(t, c.bound(convInt(a, c.mul, c.div))), columnar.IntValue(t, c.bound(convInt(b, c.mul, c.div))), true
	case *metadata.TypedColumnIndex[float32]:
		return columnar.FloatValue(t, float64(x.MinValues()[j])), columnar.FloatValue(t, float64(x.MaxValues()[j])), true
	case *metadata.TypedColumnIndex[float64]:
		return columnar.FloatValue(t, x.MinValues()[j]), columnar.FloatValue(t, x.MaxValues()[j]), true
	case *metadata.TypedColumnIndex[parquet.ByteArray]:
		return bytesStats(c, x.MinValues()[j], x.MaxValues()[j])
	case *metadata.TypedColumnIndex[parquet.FixedLenByteArray]:
		return bytesStats(c, x.MinValues()[j], x.MaxValues()[j])
	}
	return lo, hi, false
}

// rowRange is the rows [lo, hi) of a row group.
type rowRange struct{ lo, hi int64 }

// pagedRanges returns the row ranges of unit ui that the page indexes of
// the filter columns cannot rule out, in order, or nil with ok false when
// no page index rules anything out. Pages are ruled out with the same
// verdicts as row groups (a page whose min/max/null count prove the
// predicate false); NaN, NULL-only pages and missing indexes are "maybe".
func (t *Table) pagedRanges(ui int, filter []index.Pred) (ranges []rowRange, ok bool) {
	rows := t.units[ui].rows
	all := []rowRange{{0, rows}}
	out := all
	for _, p := range filter {
		out = intersectRanges(out, t.predRanges(ui, p, rows))
		if len(out) == 0 {
			return nil, true
		}
	}
	if len(out) == 1 && out[0] == all[0] {
		return nil, false
	}
	return out, true
}

// predRanges returns the rows of unit ui where p may hold.
func (t *Table) predRanges(ui int, p index.Pred, rows int64) []rowRange {
	if p.Op == index.Or {
		var out []rowRange
		for _, q := range p.Any {
			out = unionRanges(out, t.predRanges(ui, q, rows))
		}
		return out
	}
	all := []rowRange{{0, rows}}
	if p.Col < 0 || p.Col >= len(t.cols) {
		return all
	}
	pi := t.pageIndexOf(ui, &t.cols[p.Col])
	if pi.stats == nil {
		return all
	}
	var out []rowRange
	for j := range pi.stats {
		if t.statsVerdict(pi.stats[j], p) == index.None {
			continue
		}
		lo, hi := pi.first[j], pi.pageEnd(j, rows)
		if n := len(out); n > 0 && out[n-1].hi == lo {
			out[n-1].hi = hi
		} else {
			out = append(out, rowRange{lo, hi})
		}
	}
	return out
}

// intersectRanges returns the rows in both a and b (each sorted, disjoint).
func intersectRanges(a, b []rowRange) []rowRange {
	var out []rowRange
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		if lo < hi {
			out = append(out, rowRange{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// unionRanges returns the rows in a or b (each sorted, disjoint), merged.
func unionRanges(a, b []rowRange) []rowRange {
	all := append(append(make([]rowRange, 0, len(a)+len(b)), a...), b...)
	sort.Slice(all, func(i, j int) bool { return all[i].lo < all[j].lo })
	var out []rowRange
	for _, r := range all {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// rangeRows returns the number of rows in rs.
func rangeRows(rs []rowRange) int64 {
	var n int64
	for _, r := range rs {
		n += r.hi - r.lo
	}
	return n
}
