package catalog

import "github.com/b2sql/b2sql/columnar"

// ColumnRange returns the least and greatest non-NULL value of column col
// (planner.ColumnRanger), two NULLs when it has none: the statistics
// DuckDB keeps of its own tables, which bitstring_agg without min and max
// reads. b2sql keeps none, so the
// rows are read; DuckDB's statistics only ever widen, so after a DELETE
// or UPDATE DuckDB may still count values this range no longer has.
func (t *MemTable) ColumnRange(col int) (lo, hi columnar.Value, ok bool) {
	if col < 0 || col >= len(t.schema) {
		return lo, hi, false
	}
	for _, r := range t.Snapshot() {
		v := r[col]
		if v.Null {
			continue
		}
		if !ok || columnar.Compare(v, lo) < 0 {
			lo = v
		}
		if !ok || columnar.Compare(v, hi) > 0 {
			hi = v
		}
		ok = true
	}
	if !ok {
		return columnar.NullValue(t.schema[col].Type), columnar.NullValue(t.schema[col].Type), true
	}
	return lo, hi, true
}
