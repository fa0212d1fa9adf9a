// Package differential compares b2sql with a reference engine, SQLite
// (modernc.org/sqlite, pure Go), on random tables and random queries.
//
// The tables (data_test.go) hold every type both engines can compare —
// integers, doubles, strings, booleans, dates and timestamps — with NULLs
// and duplicates; b2sql reads them both as Parquet (written with arrow-go,
// not b2sql's writer) and as CTable (.b2d, written by b2sql's COPY … TO).
// The queries (query_test.go) are generated as pairs of texts, one per
// dialect, from one tree, so that each dialect difference is handled in
// one place, and never by hoping it does not occur:
//
//   - booleans are 0/1 in SQLite: results compare true as 1;
//   - dates and timestamps are ISO text in SQLite, whose order and
//     equality are those of the values; a CTable stores DATE as a
//     datetime64, so a CTable DATE comes back as a TIMESTAMP at midnight,
//     which compares equal to the date;
//   - `/` is float division in b2sql (DuckDB) and integer division in
//     SQLite on integers: SQLite's divisor is written as a REAL;
//   - LIKE is case-insensitive in SQLite by default: the test turns
//     PRAGMA case_sensitive_like on;
//   - NULLs sort first in SQLite and last in b2sql: every ORDER BY says
//     NULLS FIRST or NULLS LAST;
//   - only ASCII strings, since SQLite's lower/upper fold ASCII only;
//   - doubles are multiples of 1/4, so sums are exact whatever the order;
//     averages compare with a relative tolerance of 1e-9;
//   - division and modulo only by non-zero constants, integers small
//     enough never to overflow.
//
// Results without a total ORDER BY compare as multisets. A mismatch
// prints the seed, the data and the query in both dialects, and the first
// rows that differ; run one query again with -differential.seed and
// -differential.only. The default run is a few hundred queries; set
// -differential.n (or B2SQL_DIFFERENTIAL_N) for a long run.
package differential
