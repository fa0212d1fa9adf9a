// Package dml runs the statements that write: INSERT, REPLACE and COPY
// table FROM (insert.go, keys.go), DELETE (delete.go), UPDATE (update.go),
// COPY … TO, CREATE TABLE … AS and DROP TABLE (copy.go), CREATE TABLE with
// columns (create.go) and the index statements (index.go), over in-memory
// tables and CTables (.b2d, .b2z) of internal/catalog.
//
// Each consumes the batches of a built plan (Drive), never a result's rows
// one at a time: INSERT converts a batch with the executor's cast kernels
// and gathers it into the table's columns; DELETE and UPDATE read their
// table through a scan that numbers its rows (rowid.go) and change rows by
// that row id, as DuckDB's PhysicalDelete and PhysicalUpdate do, so that
// no rule may reorder rows under them unnoticed. A statement on a CTable is
// one ctable.Change, built beside the table and swapped in atomically under
// the table's write locks; queries already running keep the version they
// opened.
//
// The session's planning comes in through Env (dml never imports
// internal/engine); errors are positioned *sql.Error.
package dml
