// Package csv reads and writes CSV files with DuckDB's options and
// semantics (read_csv, read_csv_auto, COPY … TO 'x.csv').
//
// Reading starts with the sniffer (sniff.go), which reads a sample (the
// first sample_size records, at most 8 MiB) and picks:
//
//   - the dialect: the delimiter (',' '|' ';' tab), quote ('"', '\” or
//     none), escape (the quote itself, RFC 4180, or '\\') and comment
//     character ('#' or none) that split the sample into the most records
//     of one field count;
//   - the column types: for each column the first of BOOLEAN, BIGINT,
//     DOUBLE, TIME, DATE, TIMESTAMP that every sampled value fits, else
//     VARCHAR; a date or timestamp that is not ISO 8601 is tried against
//     DuckDB's format templates (day-first before month-first, separators
//     '-', '/', '.', ' ');
//   - the header: the first record is one when a value of it does not fit
//     its column's type, or when every column is text.
//
// Any option fixes its part of the guess (Options). A UTF-8 byte order
// mark is skipped; records end at "\n" or "\r\n" (or "\r" alone in a file
// that has no "\n").
//
// An uncompressed file is read in parallel chunks of about 8 MiB. Chunk k
// starts at the first record boundary at or after k × 8 MiB, found from
// the boundary of chunk k-1 by Dialect.boundary, which follows quotes
// exactly (jumping between them with bytes.IndexByte) without splitting
// fields; so a quoted field holding newlines never splits a chunk wrong.
// Boundaries are found lazily and in order under a lock, each by reading
// the chunk it ends, and the chunk's reader then parses those bytes on its
// own core. Memory is bounded by the chunks in flight (one per worker) plus
// max_line_size. A compressed file (gzip, zstd, by extension or magic
// number) is one stream cut into buffers of whole records the same way.
//
// Text becomes values as DuckDB casts it (convert.go). Strings point into
// the chunk buffer, or into the lexer's arena for quoted fields with
// escapes; a batch stays valid until the next call to Next. An error names
// the file, the line and the column (RecordError); with ignore_errors the
// row is dropped instead, and kept in Table.Rejects with store_rejects.
//
// Writer writes CSV text as DuckDB's COPY TO does: a header, fields quoted
// only when they hold the delimiter, the quote or a newline, or equal the
// NULL text; gzip or zstd by extension or option; written to a temporary
// file renamed into place on Close.
//
// # Files
//
// table.go opens readers (reader.go) that read the table's conversion
// plan, rejects and positions: one pair of files that need each other
// (tests/filecycles_test.go allows at most 1).
package csv
