package catalog

import (
	"context"
	"io"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/sql"
)

// MemTable is a table held in memory as rows of values: tables created
// without a directory (CREATE TABLE in an in-memory database, or WITH
// (FORMAT memory)) and table functions that return metadata
// (b2_metadata).
//
// Rows are immutable once stored: an append adds rows after the ones a
// running scan took (Scan snapshots the slice), and a delete or update
// installs a new slice, so scans see one state and DML never blocks them.
type MemTable struct {
	schema columnar.Schema
	cons   []ColumnConstraints // per column; nil: none, every column nullable
	keys   [][]int             // PRIMARY KEY / UNIQUE column sets
	// primary marks the PRIMARY KEY's columns (nil: none), for DESCRIBE.
	primary []bool
	// defaults are the columns' DEFAULT expressions as CREATE TABLE wrote
	// them (nil, or Text "": none), bound by each statement that uses
	// them (sql.BindDefault).
	defaults []sql.Source
	// generated are the table's VIRTUAL generated columns, which a query
	// computes from the stored ones (sql/bind_generated.go); schema holds
	// the stored columns only.
	generated []sql.GeneratedColumn
	// temp marks a table made by CREATE TEMP TABLE: the one temp.t and
	// temp.main.t name (sql.CatalogMismatch).
	temp bool
	// numbered marks a table of the database (CREATE TABLE [AS]), whose
	// rows have row ids; the tables b2sql makes for a statement's own use
	// (RETURNING rows, a WITH's writes, metadata functions) have none.
	numbered bool

	mu   sync.RWMutex
	rows [][]columnar.Value
	// ver counts the changes of rows (Append, SetRows): a transaction's
	// commit compares it with the count its snapshot was taken at (tx.go).
	ver uint64
	// origin is the database's table when this one is a transaction's
	// version of it, taken at ver from (tx.go); nil otherwise.
	origin *MemTable
	from   uint64
}

func (t *MemTable) Schema() columnar.Schema { return t.schema }

// Constraints returns each column's constraints (every column nullable
// and unconstrained when none were declared).
func (t *MemTable) Constraints() []ColumnConstraints {
	if t.cons != nil {
		return t.cons
	}
	cons := make([]ColumnConstraints, len(t.schema))
	for i := range cons {
		cons[i].Nullable = true
	}
	return cons
}

// Defaults returns each column's DEFAULT expression (nil, or Text "":
// none).
func (t *MemTable) Defaults() []sql.Source { return t.defaults }

// Generated implements sql.GeneratedTable.
func (t *MemTable) Generated() []sql.GeneratedColumn { return t.generated }

// Keys returns the PRIMARY KEY and UNIQUE column sets.
func (t *MemTable) Keys() [][]int { return t.keys }

// Temporary reports whether the table was created TEMP.
func (t *MemTable) Temporary() bool { return t.temp }

// AsTemp marks a table not yet registered as created TEMP and returns
// it.
func (t *MemTable) AsTemp(temp bool) *MemTable {
	t.temp = temp
	return t
}

// NewMemTable returns an unregistered in-memory table holding rows.
func NewMemTable(schema columnar.Schema, rows [][]columnar.Value) *MemTable {
	return &MemTable{schema: schema, rows: rows}
}

func (t *MemTable) RowCount() int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return int64(len(t.rows))
}

// Snapshot returns the current rows; the caller must not modify them.
func (t *MemTable) Snapshot() [][]columnar.Value {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.rows[:len(t.rows):len(t.rows)]
}

// Append adds rows (owned by the table from now on).
func (t *MemTable) Append(rows [][]columnar.Value) {
	t.mu.Lock()
	t.rows = append(t.rows, rows...)
	t.ver++
	t.mu.Unlock()
}

// SetRows installs a new set of rows.
func (t *MemTable) SetRows(rows [][]columnar.Value) {
	t.mu.Lock()
	t.rows = rows
	t.ver++
	t.mu.Unlock()
}

// txVersion returns a transaction's version of t: the same columns and
// rows, with no spare capacity, so that the transaction's first append
// copies the row pointers (never the rows) instead of writing where the
// database's table appends next.
func (t *MemTable) txVersion() *MemTable {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return &MemTable{schema: t.schema, cons: t.cons, keys: t.keys, primary: t.primary, defaults: t.defaults, generated: t.generated, temp: t.temp, numbered: t.numbered,
		rows: t.rows[:len(t.rows):len(t.rows)], ver: t.ver, origin: t, from: t.ver}
}

// changed reports whether a transaction's version was written to.
func (t *MemTable) changed() bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.ver != t.from
}

func (t *MemTable) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	return &memReader{t: t, rows: t.Snapshot(), cols: spec.Cols}, nil
}

type memReader struct {
	t    *MemTable
	rows [][]columnar.Value
	cols []int
	pos  int
}

func (r *memReader) Schema() columnar.Schema {
	s := make(columnar.Schema, len(r.cols))
	for i, c := range r.cols {
		s[i] = r.t.schema[c]
	}
	return s
}

func (r *memReader) Next(ctx context.Context) (*columnar.Batch, error) {
	if r.pos >= len(r.rows) {
		return nil, io.EOF
	}
	end := min(r.pos+columnar.MaxBatch, len(r.rows))
	n := end - r.pos
	types := make([]columnar.Type, len(r.cols))
	for i, c := range r.cols {
		types[i] = r.t.schema[c].Type
	}
	b := columnar.NewBatch(types, n)
	b.Len = n
	for k := 0; k < n; k++ {
		row := r.rows[r.pos+k]
		for i, c := range r.cols {
			b.Cols[i].SetValue(k, n, row[c])
		}
	}
	r.pos = end
	return b, nil
}

func (r *memReader) Close() error { return nil }
