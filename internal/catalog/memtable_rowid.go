package catalog

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// RowIDs implements sql.RowIDSource: a row of a table of the database
// has its index among the rows as its id (the rowid pseudo-column,
// sql/rowid.go).
func (t *MemTable) RowIDs() bool { return t.numbered }

// Numbered marks a table not yet registered as a table of the database,
// whose rows have row ids, and returns it.
func (t *MemTable) Numbered() *MemTable {
	t.numbered = true
	return t
}

// ScanFrom implements sql.RowIDScanner: the rows from index from on, up
// to spec.Limit rows counted from the first (-1: all).
func (t *MemTable) ScanFrom(ctx context.Context, spec index.ScanSpec, from int64) (columnar.Reader, int64, error) {
	rows := t.Snapshot()
	end := int64(len(rows))
	if spec.Limit >= 0 {
		end = min(end, spec.Limit)
	}
	from = min(max(from, 0), end)
	return &memReader{t: t, rows: rows[from:end], cols: spec.Cols}, from, nil
}
