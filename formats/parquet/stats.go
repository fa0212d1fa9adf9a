package parquet

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// chunkStats reads the statistics of exposed column c in a row group.
// Parquet min/max exclude NaN and carry no NaN count, so float columns are
// marked as possibly holding NaN; verdictOf compensates (see floatVerdict).
func chunkStats(rgm *metadata.RowGroupMetaData, c *column) (colStats, error) {
	if c.nested != nil {
		return colStats{}, nil // no predicate reaches a nested column
	}
	cc, err := rgm.ColumnChunk(c.leaf)
	if err != nil {
		return colStats{}, err
	}
	ts, err := cc.Statistics()
	if err != nil || ts == nil {
		// Unreadable statistics only cost pruning, never correctness.
		return colStats{}, nil
	}
	out := index.Stats{NullCount: -1, Rows: rgm.NumRows()}
	if ts.HasNullCount() {
		out.NullCount = ts.NullCount()
		if out.NullCount < 0 || out.NullCount > out.Rows {
			return colStats{}, corruptf("null count %d in a row group of %d rows", out.NullCount, out.Rows)
		}
	}
	if ts.HasMinMax() {
		out.Min, out.Max, out.HasMinMax = statValues(ts, c)
	}
	if !out.HasMinMax && out.NullCount < 0 {
		return colStats{}, nil
	}
	return colStats{ok: true, s: out}, nil
}

// statValues converts typed min/max into Values of the column's type, with
// the same conversion the decoder applies to data so that the bounds stay
// bounds (floor division keeps nanosecond timestamps monotone).
func statValues(ts metadata.TypedStatistics, c *column) (lo, hi columnar.Value, ok bool) {
	t := c.field.Type
	switch s := ts.(type) {
	case *metadata.BooleanStatistics:
		return columnar.BoolValue(s.Min()), columnar.BoolValue(s.Max()), true
	case *metadata.Int32Statistics:
		if c.kind == kUint32 {
			return columnar.IntValue(t, int64(uint32(s.Min()))), columnar.IntValue(t, int64(uint32(s.Max()))), true
		}
		return columnar.IntValue(t, c.bound(int64(s.Min())*c.mul)), columnar.IntValue(t, c.bound(int64(s.Max())*c.mul)), true
	case *metadata.Int64Statistics:
		if c.kind == kUint64 {
			return columnar.UintValue(uint64(s.Min())), columnar.UintValue(uint64(s.Max())), true
		}
		return columnar.IntValue(t, c.bound(convInt(s.Min(), c.mul, c.div))), columnar.IntValue(t, c.bound(convInt(s.Max(), c.mul, c.div))), true
	case *metadata.Float32Statistics:
		return columnar.FloatValue(t, float64(s.Min())), columnar.FloatValue(t, float64(s.Max())), true
	case *metadata.Float64Statistics:
		return columnar.FloatValue(t, s.Min()), columnar.FloatValue(t, s.Max()), true
	case *metadata.ByteArrayStatistics:
		return bytesStats(c, s.Min(), s.Max())
	case *metadata.FixedLenByteArrayStatistics:
		return bytesStats(c, s.Min(), s.Max())
	}
	return lo, hi, false
}

func bytesStats(c *column, min, max []byte) (lo, hi columnar.Value, ok bool) {
	t := c.field.Type
	switch c.kind {
	case kBytes, kFixed:
		lo = columnar.Value{Type: t, S: string(min)}
		hi = columnar.Value{Type: t, S: string(max)}
		return lo, hi, true
	case kDecBytes:
		a, okA := beInt64(min)
		b, okB := beInt64(max)
		return columnar.IntValue(t, a), columnar.IntValue(t, b), okA && okB
	}
	return lo, hi, false
}

// bound is a statistic's integer (in microseconds) as the column's
// vectors hold it: a TIMETZ key for a UTC-adjusted TIME (the key grows
// with the time, so bounds stay bounds).
func (c *column) bound(x int64) int64 {
	if c.tz {
		return columnar.TimeTZKey(x, 0)
	}
	return x
}

// verdict evaluates the conjunction filter against unit u's statistics.
func (t *Table) verdict(u *unit, filter []index.Pred) index.Verdict {
	if len(filter) == 0 {
		return index.All
	}
	vs := make([]index.Verdict, len(filter))
	for i, p := range filter {
		vs[i] = t.predVerdict(u, p)
	}
	return index.Conjunction(vs...)
}

// predVerdict is index.VerdictOf with one correction for floats: Parquet
// statistics ignore NaN, and NaN sorts above every number, so a NaN row may
// satisfy "> x", ">= x" and "<> x" while min/max say nothing about it, and
// fails every other comparison even when min/max say All.
func (t *Table) predVerdict(u *unit, p index.Pred) index.Verdict {
	if p.Op == index.Or {
		out := index.None
		for _, q := range p.Any {
			switch t.predVerdict(u, q) {
			case index.All:
				return index.All
			case index.Maybe:
				out = index.Maybe
			}
		}
		return out
	}
	if p.Col < 0 || p.Col >= len(u.stats) || !u.stats[p.Col].ok {
		return index.Maybe
	}
	return t.statsVerdict(u.stats[p.Col].s, p)
}

// statsVerdict is s.Verdict(p) for a single-column p on one row group or
// page of column p.Col, corrected for NaN (see predVerdict).
func (t *Table) statsVerdict(s index.Stats, p index.Pred) index.Verdict {
	v := s.Verdict(p)
	if s.HasMinMax && t.cols[p.Col].field.Type.IsFloat() {
		switch p.Op {
		case index.Gt, index.Ge, index.Ne:
			if v == index.None {
				v = index.Maybe
			}
		case index.Eq, index.Lt, index.Le, index.Between, index.In:
			if v == index.All {
				v = index.Maybe
			}
		}
	}
	return v
}

// SupportsFilter reports Exact for every predicate on a column of the
// table, and for ORs of them: a scan given a filter applies it to rows
// (filtered.go), which is what lets it decode the other columns late. Row
// groups whose statistics or bloom filters rule the predicate out, and pages
// whose page index does, are skipped on the way. An InSet key set (a
// runtime join filter) is Exact on integer columns: it is tested on the
// rows (stepSet), never used to skip row groups or pages.
func (t *Table) SupportsFilter(p index.Pred) index.Support {
	if p.Op == index.Or {
		if len(p.Any) == 0 {
			return index.Unsupported
		}
		for _, q := range p.Any {
			if t.SupportsFilter(q) == index.Unsupported {
				return index.Unsupported
			}
		}
		return index.Exact
	}
	if p.Col < 0 || p.Col >= len(t.cols) || t.cols[p.Col].nested != nil || !predFits(p, t.cols[p.Col].field.Type) {
		return index.Unsupported
	}
	return index.Exact
}

// predFits reports whether p's constants have the column's type t (the
// binder casts them), so that rowFilter may compare payloads directly: a
// DATE against a TIMESTAMP, or decimals of different scales, would compare
// wrongly as plain integers.
func predFits(p index.Pred, t columnar.Type) bool {
	switch p.Op {
	case index.IsNull, index.IsNotNull:
		return true
	case index.InSet:
		// A key set tests the decoded integer payload (stepSet).
		return p.Set != nil && p.Set.Has != nil && len(p.Vals) == 0 && t.Phys() == columnar.PhysInt
	case index.Between:
		if len(p.Vals) != 2 {
			return false
		}
	case index.In:
		if len(p.Vals) == 0 {
			return false
		}
	default:
		if len(p.Vals) != 1 {
			return false
		}
	}
	for _, v := range p.Vals {
		if v.Null || v.Type.ID != t.ID || v.Type.Phys() != t.Phys() || (t.ID == columnar.Decimal && v.Type.Scale != t.Scale) {
			return false
		}
	}
	return true
}

// scanPlan is what a scan reads, decided from metadata alone: the units
// to read in order, the row ranges the page index leaves in each, and what
// each rule skipped.
type scanPlan struct {
	read      []int
	allTrue   int
	skipped   int
	skippedBy [index.NumScanRules]int
	ranges    map[int][]rowRange // unit → rows left by the page index (absent: all)
	// pagesTotal/pagesLeft count, over the units read, the pages of the
	// filter columns' chunks and those the page index did not rule out.
	pagesTotal, pagesLeft int
	// preds[unit] are the filter predicates to apply to the unit's rows:
	// those its statistics did not prove true for every row.
	preds map[int][]index.Pred
	// pos[unit] is the unit's place in read (after, for reads ahead).
	posOnce sync.Once
	pos     map[int]int
	// denseBatches and sparseBatches count the batches of filtered units
	// whose selection is dense or sparse, over every reader of the plan
	// (source.go, denseScan).
	denseBatches, sparseBatches atomic.Int64
	// walkedChunks counts the column chunks whose batches entered nearly
	// every page in order although few rows passed (source.go, pageWalk):
	// their pages are all read anyway.
	walkedChunks atomic.Int64
	// readAheadStarted: the batch that decided the scan has started the
	// full read-ahead (source.go, noteBatch).
	readAheadStarted atomic.Bool
}

// plan decides which units a scan reads. It returns the units to read (in
// order), how many of them statistics proved all-true, and how many were
// skipped.
func (t *Table) plan(spec index.ScanSpec) (read []int, allTrue, skipped int) {
	pl := t.planScan(spec)
	return pl.read, pl.allTrue, pl.skipped
}

// planScan decides, from footer statistics (BlockPruning), bloom filters
// (BloomFilter) and the page index (PageIndex), which units and rows a scan
// with spec reads. Each rule runs only where spec.On allows it.
func (t *Table) planScan(spec index.ScanSpec) *scanPlan {
	pl := &scanPlan{read: make([]int, 0, len(t.units))}
	t.prefetchPlanMeta(spec) // remote files: source.go
	if len(spec.Filter) > 0 {
		pl.preds = map[int][]index.Pred{}
	}
	for i := range t.units {
		u := &t.units[i]
		if len(spec.Filter) == 0 {
			pl.read = append(pl.read, i)
			continue
		}
		preds := spec.Filter
		if spec.On(index.BlockPruning) {
			vs := make([]index.Verdict, len(spec.Filter))
			preds = nil
			for k, p := range spec.Filter {
				vs[k] = t.predVerdict(u, p)
				if vs[k] != index.All {
					preds = append(preds, p)
				}
			}
			switch index.Conjunction(vs...) {
			case index.None:
				pl.skipped++
				pl.skippedBy[index.BlockPruning]++
				continue
			case index.All:
				pl.allTrue++
			}
		}
		if len(preds) > 0 && spec.On(index.BloomFilter) && t.bloomRules(i, preds) {
			pl.skipped++
			pl.skippedBy[index.BloomFilter]++
			continue
		}
		if len(preds) > 0 && spec.On(index.PageIndex) {
			rs, ok := t.pagedRanges(i, preds)
			if ok && len(rs) == 0 {
				pl.skipped++
				pl.skippedBy[index.PageIndex]++
				continue
			}
			t.countFilterPages(pl, i, preds, rs, ok)
			if ok {
				if pl.ranges == nil {
					pl.ranges = map[int][]rowRange{}
				}
				pl.ranges[i] = rs
			}
		}
		if len(preds) > 0 {
			pl.preds[i] = preds
		}
		pl.read = append(pl.read, i)
	}
	t.orderTopK(spec, pl.read)
	return pl
}

// countFilterPages adds to pl the pages of unit ui's filter columns and
// how many of them overlap the rows left (all of them when !narrowed).
func (t *Table) countFilterPages(pl *scanPlan, ui int, preds []index.Pred, left []rowRange, narrowed bool) {
	var cols []int
	for _, p := range preds {
		for _, c := range p.Cols(nil) {
			if !slices.Contains(cols, c) {
				cols = append(cols, c)
			}
		}
	}
	rows := t.units[ui].rows
	for _, c := range cols {
		if c < 0 || c >= len(t.cols) {
			continue
		}
		pi := t.pageIndexOf(ui, &t.cols[c])
		pl.pagesTotal += pi.pages()
		if !narrowed {
			pl.pagesLeft += pi.pages()
			continue
		}
		for j := range pi.first {
			lo, hi := pi.first[j], pi.pageEnd(j, rows)
			for _, r := range left {
				if r.lo < hi && lo < r.hi {
					pl.pagesLeft++
					break
				}
			}
		}
	}
}

// count adds the plan's decisions to stats (nil: nothing to do).
func (pl *scanPlan) count(stats *index.ScanStats, units int) {
	if stats == nil {
		return
	}
	stats.UnitName = "row groups"
	atomic.AddInt64(&stats.UnitsTotal, int64(units))
	atomic.AddInt64(&stats.UnitsSkipped, int64(pl.skipped))
	atomic.AddInt64(&stats.UnitsAllTrue, int64(pl.allTrue))
	for r, n := range pl.skippedBy {
		if n > 0 {
			atomic.AddInt64(&stats.SkippedBy[r], int64(n))
		}
	}
}

// unitFilter returns what a scan applies to unit ui's rows: the predicates
// not proved true for the whole unit (nil: none) and the row ranges the
// page index leaves (nil: all rows).
func (s *scanner) unitFilter(ui int) ([]index.Pred, []rowRange) {
	if s.plan == nil {
		return nil, nil
	}
	return s.plan.preds[ui], s.plan.ranges[ui]
}

// DescribeScan says, without reading data, what a scan with spec touches,
// e.g. "row groups=2/10 pages=13/40 files=1 (stats, bloom, page index)";
// pages counts the filter columns' pages in the row groups read, and those
// the page index left.
func (t *Table) DescribeScan(spec index.ScanSpec) string {
	pl := t.planScan(spec)
	var b strings.Builder
	fmt.Fprintf(&b, "row groups=%d/%d", len(pl.read), len(t.units))
	if pl.pagesTotal > 0 {
		fmt.Fprintf(&b, " pages=%d/%d", pl.pagesLeft, pl.pagesTotal)
	}
	if len(t.files) > 1 {
		fmt.Fprintf(&b, " files=%d", len(t.files))
	}
	if pl.allTrue > 0 {
		fmt.Fprintf(&b, " all-true=%d", pl.allTrue)
	}
	if len(spec.Filter) > 0 {
		var used []string
		if spec.On(index.BlockPruning) {
			used = append(used, "stats")
		}
		if pl.skippedBy[index.BloomFilter] > 0 {
			used = append(used, "bloom")
		}
		if pl.skippedBy[index.PageIndex] > 0 || pl.pagesLeft < pl.pagesTotal {
			used = append(used, "page index")
		}
		if len(used) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(used, ", "))
		}
	}
	return b.String()
}
