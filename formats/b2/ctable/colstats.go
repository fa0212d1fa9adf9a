package ctable

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// ColumnStats merges the block summaries of column col's usable index into
// whole-table statistics, so that COUNT/MIN/MAX without a WHERE are answered
// without reading the column (planner.StatsProvider), as python-blosc2
// answers min()/max() from its summaries.
//
// Summaries cover physical rows, so they describe the table's values only
// when there is nothing else among those rows: no deleted rows (tombstoned
// values stay in the extrema), no capacity padding (an index built over more
// rows than _valid_rows holds padding zeros), and, for a column that can
// hold NULLs, an index whose extrema skip them (null_aware); the number of
// NULLs is not recorded, so COUNT(col) of such a column still scans.
// Anywhere else it reports false and the query scans.
func (t *Table) ColumnStats(col int) (index.Stats, bool) {
	si, nullable := t.exactSummary(col)
	if si == nil {
		return index.Stats{}, false
	}
	out := index.Stats{Rows: t.nphys}
	if nullable {
		out.NullCount = -1
	}
	for _, s := range si.segs {
		out.HasNaN = out.HasNaN || s.HasNaN
		if !s.HasMinMax {
			continue
		}
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
	}
	return out, true
}

// exactSummary returns col's loaded summary when its segments' extrema are
// values of live rows (ColumnStats' conditions: built over every physical
// row, none deleted, NULLs left out of the extrema), and whether the
// column can hold NULLs; nil otherwise.
func (t *Table) exactSummary(col int) (si *summaryIndex, nullable bool) {
	si = t.usableIndex(col)
	if si == nil || si.built != t.nphys || t.live != t.nphys {
		return nil, false
	}
	src := t.srcs[t.cols[col].src]
	if err := src.open(t.st, t.nphys); err != nil {
		return nil, false
	}
	nullable = src.spec.Nullable || src.spec.HasSent || src.mask != nil
	if nullable && !si.nullAware {
		return nil, false
	}
	if err := si.load(t.st, t.nphys, src, t.schema[col].Type); err != nil || si.partial {
		return nil, false // partial: a segment's values have no bounds
	}
	return si, nullable
}
