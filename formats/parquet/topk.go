package parquet

import (
	"sync/atomic"

	"github.com/b2sql/b2sql/index"
)

// Top-k pruning (index.TopKPruning): when a scan feeds ORDER BY col LIMIT k,
// row groups are read in the order most likely to hold the best keys (by
// their column-chunk statistics), and a row group whose min/max cannot beat
// the k-th key the top-k has published by the time a worker reaches it is
// skipped unread. On a clustered column, ORDER BY ts DESC LIMIT 10 reads
// the last row group and skips the others.

// topkStats are unit ui's statistics of the top-k column. Parquet min/max
// ignore NaN and no NaN count exists, so a float chunk may always hold
// NaN: a DESC top-k (NaN first) then never skips it.
func (t *Table) topkStats(b *index.TopKBound, ui int) (index.Stats, bool) {
	u := &t.units[ui]
	if b.Col < 0 || b.Col >= len(u.stats) || !u.stats[b.Col].ok {
		return index.Stats{}, false
	}
	s := u.stats[b.Col].s
	if t.cols[b.Col].field.Type.IsFloat() {
		s.HasNaN = true
	}
	return s, true
}

// orderTopK sorts the units to read in the order spec.TopK wants.
func (t *Table) orderTopK(spec index.ScanSpec, read []int) {
	if spec.TopK == nil || !spec.On(index.TopKPruning) {
		return
	}
	spec.TopK.Order(read, func(ui int) (index.Stats, bool) { return t.topkStats(spec.TopK, ui) })
}

// topkSkips reports whether unit ui cannot beat the bound published so
// far, counting it as skipped if so.
func (t *Table) topkSkips(spec index.ScanSpec, ui int) bool {
	if spec.TopK == nil || !spec.On(index.TopKPruning) {
		return false
	}
	s, ok := t.topkStats(spec.TopK, ui)
	if !ok || !spec.TopK.Skips(s) {
		return false
	}
	if st := spec.Stats; st != nil {
		atomic.AddInt64(&st.UnitsSkipped, 1)
		atomic.AddInt64(&st.SkippedBy[index.TopKPruning], 1)
	}
	return true
}
