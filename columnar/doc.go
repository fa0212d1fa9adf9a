// Package columnar owns the in-memory data model every other layer shares:
// SQL types, scalar values, column vectors, batches with selection vectors,
// validity bitmaps and schemas. It imports only the standard library.
package columnar
