package ctable

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// RowIDs says a CTable numbers its rows for SQL's rowid pseudo-column
// (b2sql's sql.RowIDSource): a row's id is its position among the live
// rows (_valid_rows), the position Change.DeleteLive takes.
func (t *Table) RowIDs() bool { return true }

// ScanFrom is Scan (spec without filters, top-k or extremes, which could
// skip rows) that leaves out the blocks whose live rows all come before
// live row from (0-based, in physical order) or at and after live row
// spec.Limit (≥ 0), so that WHERE rowid BETWEEN a AND b reads the blocks
// of those rows only: it returns the live row number of the first row it
// produces, at most from. Counting the live rows of blocks reads
// _valid_rows only when the table has deleted rows.
func (t *Table) ScanFrom(ctx context.Context, spec index.ScanSpec, from int64) (columnar.Reader, int64, error) {
	first, last, start, err := t.blockSpan(from, spec.Limit)
	if err != nil {
		return nil, 0, err
	}
	if spec.Limit >= 0 {
		spec.Limit = max(spec.Limit-start, 0)
	}
	rd, err := t.scan(ctx, spec, first, last)
	return rd, start, err
}

// blockSpan returns the blocks of blockRows rows [first, last) that hold
// live rows numbered from from up to limit (-1: the end), and the live
// rows of the blocks before first.
func (t *Table) blockSpan(from, limit int64) (first, last, start int64, err error) {
	g := t.blockRows
	if g <= 0 {
		return 0, -1, 0, nil
	}
	nblocks := (t.nphys + g - 1) / g
	if limit < 0 {
		limit = t.nphys
	}
	from = max(from, 0)
	if t.live == t.liveEnd { // no row below liveEnd is deleted: positions are live numbers
		first = min(from, t.liveEnd) / g
		return first, min((limit+g-1)/g, nblocks), first * g, nil
	}
	valid, err := t.valid.ReadAll()
	if err != nil {
		return 0, 0, 0, tableError(t.path, "_valid_rows.b2nd", err)
	}
	valid = valid[:min(int64(len(valid)), t.nphys)]
	live := int64(0) // live rows before block b
	first, last = -1, nblocks
	for b := int64(0); b < nblocks; b++ {
		if live >= limit {
			last = b
			break
		}
		n := int64(0)
		for _, v := range valid[b*g : min((b+1)*g, int64(len(valid)))] {
			if v != 0 {
				n++
			}
		}
		if first < 0 && live+n > from {
			first, start = b, live
		}
		live += n
	}
	if first < 0 { // no live row at or after from
		return nblocks, nblocks, live, nil
	}
	return first, last, start, nil
}
