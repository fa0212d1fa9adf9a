package planner

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// Table is anything a query can scan: a Parquet file or glob, a CTable, a
// b2nd array, an in-memory table. Formats implement it without importing
// planner (Go interfaces are structural).
type Table interface {
	// Schema lists the table's columns. It does no I/O beyond metadata.
	Schema() columnar.Schema
	// Scan starts reading the columns spec.Cols; it may use spec.Filter to
	// skip data (and must honour what SupportsFilter promised).
	Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error)
}

// FilterPusher is a Table that can use some predicates while scanning.
type FilterPusher interface {
	Table
	SupportsFilter(p index.Pred) index.Support
}

// RowCounter is a Table that knows its row count from metadata.
type RowCounter interface {
	Table
	RowCount() int64
}

// OrderedScanner is a Table that can produce its rows in the order of a
// column itself (a CTable FULL index holds the column sorted), so that
// ORDER BY col LIMIT k reads k rows instead of sorting the table.
type OrderedScanner interface {
	Table
	// CanScanOrdered reports whether ScanOrdered works on column col now
	// (e.g. it has a FULL index that is not stale).
	CanScanOrdered(col int) bool
	// ScanOrdered produces spec.Cols of the live rows in the order of
	// column col, ascending or descending, exactly as a stable sort of the
	// plain scan would: ties in physical row order in both directions, NaN
	// above every number, NULLs last in both directions. It applies every
	// spec.Filter predicate exactly and stops after spec.Limit rows (-1:
	// all), reading lazily, so that a consumer that stops pulling stops
	// the reading.
	ScanOrdered(ctx context.Context, spec index.ScanSpec, col int, desc bool) (columnar.Reader, error)
}

// FieldColumner is a Table that stores the fields of its STRUCT columns
// apart (Parquet leaf columns, CTable dotted leaf columns), so that a
// query reading s.a can read only a's data: the ReadFields rule
// (rule_fields.go) replaces struct_extract chains over a scan's STRUCT
// column by a column of the table that holds the field, and PruneColumns
// then drops the STRUCT column when nothing else reads it.
type FieldColumner interface {
	Table
	// FieldColumn returns the index of a column, past Schema's, that holds
	// field path of STRUCT column col (path[0] is a field of col, path[1]
	// a field of that field, …): exactly struct_extract applied along
	// path, so NULL where col or any field on the way is NULL. ok is false
	// when the table has no such column. The column can be scanned, and
	// filtered with its own statistics, like any other.
	FieldColumn(col int, path []int) (int, bool)
	// ScanSchema is Schema followed by the columns FieldColumn returns
	// (named by their dotted path), for naming a scan's columns.
	ScanSchema() columnar.Schema
}

// scanSchema is the schema a scan's table column indexes refer to.
func scanSchema(t Table) columnar.Schema {
	if f, ok := t.(FieldColumner); ok {
		return f.ScanSchema()
	}
	return t.Schema()
}

// ScanDescriber is a Table that can say, without reading data, what a scan
// with spec would touch (e.g. "row groups 3/10"), for EXPLAIN.
type ScanDescriber interface {
	Table
	DescribeScan(spec index.ScanSpec) string
}

// IOReporter is a Table that may be read from a server (S3, HTTP): IO
// counts the requests it made and the bytes it fetched since it was
// opened, ok false when it reads local files only. EXPLAIN ANALYZE shows
// them per scan and the progress bar counts the bytes.
type IOReporter interface {
	Table
	IO() (io index.IOStats, ok bool)
}

// Warmer is a Table read from a server (S3, HTTP). A query calls Warm for
// each of its scans when it starts, all at once and each on its own
// goroutine, so that the round trips a scan waits for before its first
// rows (metadata it plans with, its first units' bytes) overlap with the
// other scans' instead of following them: a join's probe side is ready
// when its build side ends. Warm only fetches, within the table's
// read-ahead budget; the scan itself decides again what it reads, and
// errors are left to it. Warm returns when its requests are made.
type Warmer interface {
	Table
	Warm(spec index.ScanSpec)
}

// Catalog resolves table names and file references for the binder.
type Catalog interface {
	// Table returns the table registered under name (case-insensitive).
	Table(name string) (Table, bool)
	// TableNames lists registered tables, for "did you mean" hints.
	TableNames() []string
	// OpenPath opens a file, directory or glob named in a query
	// (FROM 'x.parquet', read_parquet('p*.parquet')); fn is the table
	// function name or "" for a bare path.
	OpenPath(fn string, path string) (Table, error)
}

// ScanUnit opens a single-threaded reader over one independent unit of a
// scan (a Parquet row group, a blosc2 chunk).
type ScanUnit = func(ctx context.Context) (columnar.Reader, error)

// UnitScanner is a Table whose scan splits into independent units, so that
// the executor can run one pipeline per worker, each pulling units from a
// shared queue (morsel-driven parallelism): filters, projections and partial
// aggregates then run on every core, not just the decoding.
type UnitScanner interface {
	Table
	// ScanUnits applies spec's pruning (counting it in spec.Stats) and
	// returns the units to read, in table order. spec.Threads and
	// spec.Limit are ignored: each unit is read by one goroutine, whole.
	ScanUnits(ctx context.Context, spec index.ScanSpec) ([]ScanUnit, error)
}

// StatsProvider is a Table with whole-table column statistics in its
// metadata (Parquet footers, SUMMARY indexes), so COUNT/MIN/MAX without a
// WHERE can be answered without reading data.
type StatsProvider interface {
	Table
	// ColumnStats merges the statistics of column col over the whole
	// table; false when some part of the table has none.
	ColumnStats(col int) (index.Stats, bool)
}
