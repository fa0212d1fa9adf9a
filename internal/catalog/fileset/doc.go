// Package fileset reads many files as one table: a list of paths or the
// matches of globs, each file opened by the catalog's opener for its
// format (Parquet, CSV, JSON, CTable, b2nd), as DuckDB's multi-file reader
// does.
//
//   - Columns: without union_by_name the first file's columns, matched by
//     name in every other file (a missing one is an error naming both
//     files, extra ones are ignored, other types are cast); with it, every
//     file's columns in order of first appearance, types widened, a column
//     a file lacks reading as NULL.
//   - filename: a VARCHAR column holding each row's file path, after the
//     data columns.
//   - Hive partitions: key=value directories in the paths become columns
//     (after filename, sorted by key as DuckDB does), typed by hive_types
//     or detected (DATE, TIMESTAMP, BIGINT, else VARCHAR). Predicates on
//     them decide per file, from the path alone, so files they exclude are
//     never opened.
//
// A Table is a planner UnitScanner: the units of every kept file are
// queued together, so files are read in parallel and each file keeps its
// own pruning (row groups, blocks) for the predicates on its columns. A
// file is opened when a scan first needs it (the first file at Open for
// the schema; every file at Open with union_by_name) and stays open until
// Close.
//
// # Files
//
// table.go opens a reader (reader.go) per file, which reads the table's
// partition bindings and constants: one pair of files that need each other
// (tests/filecycles_test.go allows at most 1).
package fileset
