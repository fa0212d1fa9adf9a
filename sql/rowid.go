package sql

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/planner"
)

// The rowid pseudo-column, as DuckDB has it: every row of a table (an
// in-memory table, a CTable) has a BIGINT row id that a query reaches by
// name (rowid, t.rowid) and that * does not list; a column of the table
// named rowid hides it. Views, WITH entries, derived tables and file
// reads (Parquet, CSV, JSON, b2nd) have none: DuckDB refuses rowid there
// as an unknown column.
//
// A table's row id is its row's position among the table's live rows,
// from 0, in table order. DELETE and UPDATE address rows by it
// (internal/dml/rowid.go), so that WHERE rowid = 5 reads and changes the
// same row. (DuckDB numbers rows by their slot and leaves a deleted row's
// number unused until a checkpoint; b2sql renumbers the rows after it.)
//
// The binder reads a table through a RowIDTable only when the statement
// names rowid somewhere (namesRowID), so that every other query keeps
// its table's pushdown and parallel scans.

// rowIDName names the row id column.
const rowIDName = "rowid"

// RowIDSource is a table that numbers its rows (an in-memory table, a
// CTable); other tables have no rowid.
type RowIDSource interface {
	RowIDs() bool
}

// RowIDTable is a table with one more column, the row id, last. It
// advertises none of its table's pushdown (no filter, pruning or
// parallel scan), so that the scan produces every live row, in order,
// numbered; a predicate on the row id with an upper bound stops the scan
// after that row (SupportsFilter).
type RowIDTable struct {
	t      planner.Table
	schema columnar.Schema
}

// NewRowIDTable reads t with its row ids. When t has a column named rowid
// the row id column gets a name SQL cannot write: the table's own column
// stays what rowid names.
func NewRowIDTable(t planner.Table) *RowIDTable {
	base := t.Schema()
	name := rowIDName
	if hasRowIDColumn(base) {
		name = "\x00rowid"
	}
	schema := append(append(columnar.Schema(nil), base...), columnar.Field{Name: name, Type: columnar.TInt64})
	return &RowIDTable{t: t, schema: schema}
}

func hasRowIDColumn(s columnar.Schema) bool {
	for _, f := range s {
		if strings.EqualFold(f.Name, rowIDName) {
			return true
		}
	}
	return false
}

// namesRowID reports whether a column reference of the statement (its
// last part, in any case), nested queries included, is rowid: a
// correlated subquery may read its outer query's l.rowid.
func (q *Query) namesRowID() bool {
	return slices.Contains(q.namedColumns([]string{rowIDName}), rowIDName)
}

// ID is the position of the row id column.
func (r *RowIDTable) ID() int { return len(r.schema) - 1 }

func (r *RowIDTable) Schema() columnar.Schema { return r.schema }

// Virtual hides the row id from *, COLUMNS and NATURAL JOIN.
func (r *RowIDTable) Virtual(col int) bool { return col == r.ID() }

// Generated passes on the table's generated columns (the row id is
// stored columns' last, so their places are unchanged): a WHERE or SET
// of DELETE and UPDATE reads them as a query does.
func (r *RowIDTable) Generated() []GeneratedColumn {
	if g, ok := r.t.(GeneratedTable); ok {
		return g.Generated()
	}
	return nil
}

// SupportsFilter takes the predicates on the row id that bound it from
// above (=, <, <=, BETWEEN, IN, an OR of those): the scan stops after the
// last row they can keep. The filter stays above the scan.
func (r *RowIDTable) SupportsFilter(p index.Pred) index.Support {
	if _, ok := r.upper(p); ok {
		return index.Inexact
	}
	return index.Unsupported
}

// upper is the largest row id p keeps, if p bounds the row id.
func (r *RowIDTable) upper(p index.Pred) (int64, bool) {
	if p.Op == index.Or {
		hi, ok := int64(-1), len(p.Any) > 0
		for _, q := range p.Any {
			h, k := r.upper(q)
			hi, ok = max(hi, h), ok && k
		}
		return hi, ok
	}
	if p.Col != r.ID() || len(p.Vals) == 0 {
		return 0, false
	}
	switch p.Op {
	case index.Eq, index.Le:
		return p.Vals[0].I, true
	case index.Lt:
		return p.Vals[0].I - 1, true
	case index.Between:
		return p.Vals[1].I, true
	case index.In:
		hi := p.Vals[0].I
		for _, v := range p.Vals[1:] {
			hi = max(hi, v.I)
		}
		return hi, true
	}
	return 0, false
}

func (r *RowIDTable) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	id := r.ID()
	inner := index.ScanSpec{Limit: spec.Limit, Threads: 1, Stats: spec.Stats, NoPrune: spec.NoPrune, Off: spec.Off}
	// One stream in physical order (a parallel scan interleaves its
	// units), filtered by nothing (skipped rows would not be counted);
	// a bound on the row id is a limit on the live rows read.
	for _, p := range spec.Filter {
		if hi, ok := r.upper(p); ok && !spec.NoPrune {
			n := max(hi+1, 0)
			if inner.Limit < 0 || n < inner.Limit {
				inner.Limit = n
			}
		}
	}
	out := -1 // position of the row id among spec.Cols
	for i, c := range spec.Cols {
		if c == id {
			out = i
			continue
		}
		inner.Cols = append(inner.Cols, c)
	}
	pad := len(inner.Cols) == 0 // a scan of no columns still counts rows: read the first
	if pad {
		inner.Cols = []int{0}
	}
	rd, err := r.t.Scan(ctx, inner)
	if err != nil {
		return nil, err
	}
	return &rowIDReader{r: rd, schema: r.readSchema(spec.Cols), out: out, pad: pad, stop: inner.Limit}, nil
}

func (r *RowIDTable) readSchema(cols []int) columnar.Schema {
	s := make(columnar.Schema, len(cols))
	for i, c := range cols {
		s[i] = r.schema[c]
	}
	return s
}

type rowIDReader struct {
	r      columnar.Reader
	schema columnar.Schema
	out    int
	pad    bool
	next   int64 // the row id of the next live row
	stop   int64 // the scan ends at this row id (a table may read past its limit); -1: none
	b      columnar.Batch
	ids    *columnar.Vector
}

func (r *rowIDReader) Schema() columnar.Schema { return r.schema }

func (r *rowIDReader) Next(ctx context.Context) (*columnar.Batch, error) {
	if r.stop >= 0 && r.next >= r.stop {
		return nil, io.EOF
	}
	b, err := r.r.Next(ctx)
	if err != nil {
		return nil, err
	}
	if r.out < 0 {
		r.next += int64(b.Live())
		return b, nil
	}
	if r.ids == nil {
		r.ids = columnar.NewVector(columnar.TInt64, b.Len)
	}
	r.ids.Reset(b.Len)
	for k := 0; k < b.Live(); k++ {
		r.ids.Ints[b.Row(k)] = r.next
		r.next++
	}
	in := b.Cols
	if r.pad {
		in = nil
	}
	r.b.Cols = append(r.b.Cols[:0], in[:r.out]...)
	r.b.Cols = append(r.b.Cols, r.ids)
	r.b.Cols = append(r.b.Cols, in[r.out:]...)
	r.b.Len, r.b.Sel = b.Len, b.Sel
	return &r.b, nil
}

func (r *rowIDReader) Close() error { return r.r.Close() }
