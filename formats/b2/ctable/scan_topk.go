package ctable

import (
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// Top-k pruning (index.TopKPruning): when a scan feeds ORDER BY col LIMIT k
// and col has a usable index block summary, the scan visits units in the
// order most likely to hold the best keys (index.TopKBound.Order) and skips
// each block whose min/max cannot beat the k-th key the top-k has
// published so far. On a clustered column, ORDER BY ts DESC LIMIT 10 reads
// the last blocks, and every other block is skipped unread. Ungrouped
// MIN/MAX aggregates share bounds the same way (index.ScanSpec.Extremes):
// a block is skipped when it can beat none of them.

// topkBound is one bound the scan prunes with and the summary of its
// column.
type topkBound struct {
	b  *index.TopKBound
	si *summaryIndex
}

// topkSetup loads the summaries of the top-k column, or of every MIN/MAX
// column (spec.Extremes), if the rule may run and each column has one;
// pl.topk stays nil otherwise.
func (t *Table) topkSetup(spec index.ScanSpec, pl *scanPlan) {
	if !spec.On(index.TopKPruning) {
		return
	}
	bs := spec.Extremes
	if spec.TopK != nil {
		bs = []*index.TopKBound{spec.TopK}
	}
	var out []topkBound
	for _, b := range bs {
		si := t.usableIndex(b.Col)
		if si == nil {
			return
		}
		src := t.srcs[t.cols[b.Col].src]
		if src.open(t.st, t.nphys) != nil || si.load(t.st, t.nphys, src, t.schema[b.Col].Type) != nil {
			return // the scan reports a broken column; a broken index only costs pruning
		}
		out = append(out, topkBound{b: b, si: si})
	}
	pl.topk = out
	if spec.TopK != nil {
		t.seedTopK(spec)
	}
}

// seedTopK bounds the k-th key of a top-k before any block is read
// (index.TopKBound.Seed): each summary segment holds a row whose key is
// its max (DESC) or min (ASC), so the k-th best of those keys is a floor
// for the k-th best row, and every block strictly worse than it goes
// unread, without waiting for the top-k to fill. Over a remote table that
// is the difference between a few rounds of block fetches and one round
// per aheadUnits blocks visited. Only when the extrema are values of live
// rows (exactSummary), no segment holds NaN (which sorts above every
// number), and the scan drops no row but NULL keys (a filter of other
// rows could drop the rows that hold the extrema; the planner leaves K 0
// when rows are filtered above the scan).
func (t *Table) seedTopK(spec index.ScanSpec) {
	b := spec.TopK
	if b.K <= 0 {
		return
	}
	for _, p := range spec.Filter {
		if p.Op != index.IsNotNull || p.Col != b.Col {
			return
		}
	}
	si, _ := t.exactSummary(b.Col)
	if si == nil {
		return
	}
	best := make([]columnar.Value, 0, len(si.segs))
	for _, s := range si.segs {
		if s.HasNaN {
			return
		}
		if !s.HasMinMax || s.NullCount == s.Rows {
			continue
		}
		if b.Desc {
			best = append(best, s.Max)
		} else {
			best = append(best, s.Min)
		}
	}
	b.Seed(best)
}

// topkStats are the statistics of column col over physical rows [lo, hi)
// from the summary of a bound on col.
func (pl *scanPlan) topkStats(col int, lo, hi int64) (index.Stats, bool) {
	for _, tb := range pl.topk {
		if tb.b.Col == col {
			return rangeStats(tb.si, lo, hi)
		}
	}
	return index.Stats{}, false
}

// rangeStats merges the summary segments overlapping physical rows
// [lo, hi); ok is false when some segment says too little to bound them.
func rangeStats(si *summaryIndex, lo, hi int64) (index.Stats, bool) {
	out := index.Stats{NullCount: 0}
	first, last := lo/si.segLen, (hi-1)/si.segLen
	if first < 0 || last >= int64(len(si.segs)) {
		return index.Stats{}, false
	}
	for k := first; k <= last; k++ {
		s := si.segs[k]
		out.Rows += s.Rows
		out.HasNaN = out.HasNaN || s.HasNaN
		if out.NullCount >= 0 {
			if s.NullCount < 0 {
				out.NullCount = -1
			} else {
				out.NullCount += s.NullCount
			}
		}
		switch {
		case s.HasMinMax:
			if !out.HasMinMax {
				out.HasMinMax, out.Min, out.Max = true, s.Min, s.Max
				continue
			}
			if columnar.Compare(s.Min, out.Min) < 0 {
				out.Min = s.Min
			}
			if columnar.Compare(s.Max, out.Max) > 0 {
				out.Max = s.Max
			}
		case s.NullCount == s.Rows && s.Rows > 0, s.HasNaN:
			// NULLs only, or NaN only (flagged in HasNaN): no min/max to merge.
		default:
			return index.Stats{}, false
		}
	}
	if !out.HasMinMax && !(out.NullCount == out.Rows && out.Rows > 0) && !out.HasNaN {
		return index.Stats{}, false
	}
	return out, true
}

// orderTopK sorts units (each of per blocks) in the order the bounds want.
func (pl *scanPlan) orderTopK(units []int, per int64, nphys int64) {
	if pl.topk == nil {
		return
	}
	bs := make([]*index.TopKBound, len(pl.topk))
	for i, tb := range pl.topk {
		bs[i] = tb.b
	}
	index.OrderExtremes(bs, units, func(u, col int) (index.Stats, bool) {
		lo := int64(u) * per * pl.grain
		return pl.topkStats(col, lo, min(lo+per*pl.grain, nphys))
	})
}

// topkBeaten reports whether block b (of a table of nphys rows) cannot
// beat the published bound, or any of the MIN/MAX bounds.
func (pl *scanPlan) topkBeaten(b, nphys int64) bool {
	if pl.topk == nil {
		return false
	}
	lo := b * pl.grain
	hi := min(lo+pl.grain, nphys)
	for _, tb := range pl.topk {
		s, ok := rangeStats(tb.si, lo, hi)
		if !ok || !tb.b.Skips(s) {
			return false
		}
	}
	return true
}

// topkSkips reports whether block b cannot beat the published bound (or
// any of the MIN/MAX bounds), and counts it as skipped by top-k pruning if
// so.
func (w *tableWorker) topkSkips(b int64) bool {
	if !w.pl.topkBeaten(b, w.t.nphys) {
		return false
	}
	if st := w.spec.Stats; st != nil {
		atomic.AddInt64(&st.UnitsSkipped, 1)
		atomic.AddInt64(&st.SkippedBy[index.TopKPruning], 1)
	}
	return true
}
