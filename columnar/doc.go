// Package columnar owns the in-memory data model every other layer shares:
// SQL types, scalar values, column vectors, batches with selection vectors,
// validity bitmaps and schemas. It imports only the standard library.
//
// # Files
//
// Two pairs of files need each other (tests/filecycles_test.go allows at
// most 2): vector.go's copy, flatten and empty-row operations recurse into
// nested_vector.go for LIST, STRUCT and MAP children, which grow their
// buffers with vector.go's helpers; and an ENUM type is an interned Nest
// (nested.go, which makes every parameterized type comparable with ==)
// holding the dictionary that enum.go declares and reads.
package columnar
