// Package arrowrec converts executor batches to Arrow record batches: the
// embedded API's Rows.RecordReader hands each result batch to Record, and
// its doc lists how each SQL type maps (Type). Nested columns recurse into
// the same conversion for their children.
//
// Lifetime: the 64-bit payloads (BIGINT, UBIGINT, DOUBLE, TIMESTAMP, TIME)
// of a batch without a selection are shared, not copied, and so are those
// of a nested column's fields and elements where the layouts agree (the
// rows in order, each list's elements right after the last's), so a
// record is valid only while the batch is; the other columns are copies.
package arrowrec
