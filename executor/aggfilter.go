package executor

import "github.com/b2sql/b2sql/columnar"

// An aggregate's FILTER (WHERE cond) takes the rows where cond is not TRUE
// out of that aggregate's input: it never sees them, so list() does not
// list them, first() does not pick them, count(*) does not count them and
// a group whose every row is filtered out has the aggregate's value over
// no rows (NULL, or 0 for a count), as in DuckDB. Other aggregates of the
// same HashAgg see every row. The arguments are still computed on every
// row (HashAgg.update): only the rows each state folds are narrowed.

// filterRows returns the view of b that aggregate i sees: b's columns with
// the live rows where its Filter is TRUE selected, or nil when there are
// none. The view is valid until the next call for i.
func (h *HashAgg) filterRows(i int, b *columnar.Batch) (*columnar.Batch, error) {
	cond, err := h.Aggs[i].Filter.Eval(b)
	if err != nil {
		return nil, err
	}
	if len(h.filtered) != len(h.Aggs) {
		h.filtered = make([]columnar.Batch, len(h.Aggs))
	}
	v := &h.filtered[i]
	sel := v.Sel[:0]
	if cap(sel) < b.Len {
		sel = make([]int, 0, max(b.Len, columnar.MaxBatch))
	}
	sel = selectTrue(cond, b, sel) // filter.go
	*v = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: sel}
	switch len(sel) {
	case 0:
		return nil, nil
	case b.Live():
		return b, nil
	}
	return v, nil
}
