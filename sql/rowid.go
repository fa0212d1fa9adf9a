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

// SupportsFilter takes the predicates on the row id that bound it (=,
// <, <=, >, >=, BETWEEN, IN, an OR of those): the scan stops after the
// last row they can keep, and starts near the first one when the table
// can (RowIDScanner). The filter stays above the scan.
func (r *RowIDTable) SupportsFilter(p index.Pred) index.Support {
	if b := r.bounds(p); b.hasLo || b.hasHi {
		return index.Inexact
	}
	return index.Unsupported
}

// RowIDScanner is a RowIDSource that can read a span of its rows:
// ScanFrom produces the rows from some live row at most from on, up to
// at least live row spec.Limit (≥ 0; counted from row 0), and returns
// the number of the first row it produces.
type RowIDScanner interface {
	ScanFrom(ctx context.Context, spec index.ScanSpec, from int64) (columnar.Reader, int64, error)
}

// idBounds are the smallest and largest row ids a predicate keeps.
type idBounds struct {
	lo, hi       int64
	hasLo, hasHi bool
}

// bounds is what p says of the row id: an OR bounds it as its loosest
// branch does.
func (r *RowIDTable) bounds(p index.Pred) idBounds {
	if p.Op == index.Or {
		if len(p.Any) == 0 {
			return idBounds{}
		}
		out := r.bounds(p.Any[0])
		for _, q := range p.Any[1:] {
			b := r.bounds(q)
			out.lo, out.hasLo = min(out.lo, b.lo), out.hasLo && b.hasLo
			out.hi, out.hasHi = max(out.hi, b.hi), out.hasHi && b.hasHi
		}
		return out
	}
	if p.Col != r.ID() || len(p.Vals) == 0 {
		return idBounds{}
	}
	v := p.Vals[0].I
	switch p.Op {
	case index.Eq:
		return idBounds{lo: v, hi: v, hasLo: true, hasHi: true}
	case index.Le:
		return idBounds{hi: v, hasHi: true}
	case index.Lt:
		return idBounds{hi: v - 1, hasHi: true}
	case index.Ge:
		return idBounds{lo: v, hasLo: true}
	case index.Gt:
		return idBounds{lo: v + 1, hasLo: true}
	case index.Between:
		return idBounds{lo: v, hi: p.Vals[1].I, hasLo: true, hasHi: true}
	case index.In:
		b := idBounds{lo: v, hi: v, hasLo: true, hasHi: true}
		for _, x := range p.Vals[1:] {
			b.lo, b.hi = min(b.lo, x.I), max(b.hi, x.I)
		}
		return b
	}
	return idBounds{}
}

func (r *RowIDTable) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	id := r.ID()
	inner := index.ScanSpec{Limit: spec.Limit, Threads: 1, Stats: spec.Stats, NoPrune: spec.NoPrune, Off: spec.Off}
	// One stream in physical order (a parallel scan interleaves its
	// units), filtered by nothing (skipped rows would not be counted);
	// bounds on the row id are where the scan starts and a limit on the
	// live rows read.
	from := int64(0)
	for _, p := range spec.Filter {
		b := r.bounds(p)
		if spec.NoPrune || !spec.On(index.BlockPruning) {
			break
		}
		if b.hasHi {
			n := max(b.hi+1, 0)
			if inner.Limit < 0 || n < inner.Limit {
				inner.Limit = n
			}
		}
		if b.hasLo {
			from = max(from, b.lo)
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
	var rd columnar.Reader
	var err error
	start := int64(0)
	if sc, ok := r.t.(RowIDScanner); ok && (from > 0 || inner.Limit >= 0) {
		rd, start, err = sc.ScanFrom(ctx, inner, from)
	} else {
		rd, err = r.t.Scan(ctx, inner)
	}
	if err != nil {
		return nil, err
	}
	return &rowIDReader{r: rd, schema: r.readSchema(spec.Cols), out: out, pad: pad, next: start, stop: inner.Limit}, nil
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
