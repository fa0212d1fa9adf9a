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
// the last row group and skips the others. Ungrouped MIN/MAX aggregates
// share bounds the same way (ScanSpec.Extremes): MIN(title) reads the row
// group with the least minimum first and skips every row group whose
// minimum is not below the least title found.

// topkStats are unit ui's statistics of column col. Parquet min/max
// ignore NaN and no NaN count exists, so a float chunk may always hold
// NaN: a DESC top-k (NaN first) then never skips it.
func (t *Table) topkStats(col, ui int) (index.Stats, bool) {
	u := &t.units[ui]
	if col < 0 || col >= len(u.stats) || !u.stats[col].ok {
		return index.Stats{}, false
	}
	s := u.stats[col].s
	if t.cols[col].field.Type.IsFloat() {
		s.HasNaN = true
	}
	return s, true
}

// orderTopK sorts the units to read in the order spec.TopK wants, or, for
// MIN/MAX above the scan, spec.Extremes.
func (t *Table) orderTopK(spec index.ScanSpec, read []int) {
	if !spec.On(index.TopKPruning) {
		return
	}
	if spec.TopK != nil {
		spec.TopK.Order(read, func(ui int) (index.Stats, bool) { return t.topkStats(spec.TopK.Col, ui) })
		return
	}
	index.OrderExtremes(spec.Extremes, read, func(ui, col int) (index.Stats, bool) { return t.topkStats(col, ui) })
}

// topkSkips reports whether unit ui cannot beat the bound published so
// far (or any of the MIN/MAX bounds), counting it as skipped if so.
func (t *Table) topkSkips(spec index.ScanSpec, ui int) bool {
	if !spec.On(index.TopKPruning) {
		return false
	}
	stats := func(col int) (index.Stats, bool) { return t.topkStats(col, ui) }
	if spec.TopK != nil {
		s, ok := stats(spec.TopK.Col)
		if !ok || !spec.TopK.Skips(s) {
			return false
		}
	} else if !index.ExtremesSkip(spec.Extremes, stats) {
		return false
	}
	if st := spec.Stats; st != nil {
		atomic.AddInt64(&st.UnitsSkipped, 1)
		atomic.AddInt64(&st.SkippedBy[index.TopKPruning], 1)
	}
	return true
}
