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
// the last blocks, and every other block is skipped unread.

// topkSetup loads the summary of the top-k column, if the rule may run and
// the column has one; pl.topk stays nil otherwise.
func (t *Table) topkSetup(spec index.ScanSpec, pl *scanPlan) {
	b := spec.TopK
	if b == nil || !spec.On(index.TopKPruning) {
		return
	}
	si := t.usableIndex(b.Col)
	if si == nil {
		return
	}
	src := t.srcs[t.cols[b.Col].src]
	if src.open(t.st, t.nphys) != nil || si.load(t.st, t.nphys, src, t.schema[b.Col].Type) != nil {
		return // the scan reports a broken column; a broken index only costs pruning
	}
	pl.topk = si
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

// orderTopK sorts units (each of per blocks) in the order spec.TopK wants.
func (pl *scanPlan) orderTopK(spec index.ScanSpec, units []int, per int64, nphys int64) {
	if pl.topk == nil {
		return
	}
	spec.TopK.Order(units, func(u int) (index.Stats, bool) {
		lo := int64(u) * per * pl.grain
		hi := min(lo+per*pl.grain, nphys)
		return rangeStats(pl.topk, lo, hi)
	})
}

// topkSkips reports whether block b cannot beat the published bound, and
// counts it as skipped by top-k pruning if so.
func (w *tableWorker) topkSkips(b int64) bool {
	pl := w.pl
	if pl.topk == nil {
		return false
	}
	lo := b * pl.grain
	s, ok := rangeStats(pl.topk, lo, min(lo+pl.grain, w.t.nphys))
	if !ok || !w.spec.TopK.Skips(s) {
		return false
	}
	if st := w.spec.Stats; st != nil {
		atomic.AddInt64(&st.UnitsSkipped, 1)
		atomic.AddInt64(&st.SkippedBy[index.TopKPruning], 1)
	}
	return true
}
