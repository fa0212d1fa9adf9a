package parquet

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// ColumnStats merges the statistics of column col over every row group, for
// answering COUNT/MIN/MAX from metadata. It reports false unless every row
// group has usable statistics. Min/max of byte-array columns are never
// offered: writers may truncate them, so they bound values without being
// values.
func (t *Table) ColumnStats(col int) (index.Stats, bool) {
	if col < 0 || col >= len(t.cols) {
		return index.Stats{}, false
	}
	typ := t.cols[col].field.Type
	out := index.Stats{NullCount: 0}
	noMinMax := false
	for i := range t.units {
		u := &t.units[i]
		if col >= len(u.stats) || !u.stats[col].ok {
			return index.Stats{}, false
		}
		s := u.stats[col].s
		out.Rows += s.Rows
		if s.NullCount < 0 || out.NullCount < 0 {
			out.NullCount = -1
		} else {
			out.NullCount += s.NullCount
		}
		out.HasNaN = out.HasNaN || s.HasNaN
		allNull := s.NullCount >= 0 && s.NullCount == s.Rows
		if allNull {
			continue
		}
		if !s.HasMinMax || typ.IsString() {
			noMinMax = true
			continue
		}
		if !out.HasMinMax {
			out.Min, out.Max, out.HasMinMax = s.Min, s.Max, true
			continue
		}
		if columnar.Compare(s.Min, out.Min) < 0 {
			out.Min = s.Min
		}
		if columnar.Compare(s.Max, out.Max) > 0 {
			out.Max = s.Max
		}
	}
	if noMinMax {
		out.HasMinMax = false
		out.Min, out.Max = columnar.Value{}, columnar.Value{}
	}
	// Parquet min/max skip NaN and no NaN count is kept: a float column may
	// hold NaN, which sorts above every number.
	out.HasNaN = out.HasNaN || typ.IsFloat()
	return out, true
}

// colStats are the statistics of one column chunk, converted to the
// column's SQL type. ok is false when the chunk has none worth using.
type colStats struct {
	ok bool
	s  index.Stats
}
