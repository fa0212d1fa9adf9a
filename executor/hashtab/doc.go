// Package hashtab maps keys to dense ids: the one mechanism behind every
// executor operator that groups, deduplicates or matches rows by value
// (GROUP BY, DISTINCT, UNION/INTERSECT/EXCEPT, recursive CTEs, DISTINCT
// aggregates, IN lists).
//
// A Map numbers the distinct keys it is given 0, 1, 2, … in the order they
// are first seen, a batch at a time, and gives each key back (Keys). New
// picks the implementation once, from the key columns' types, in the
// spirit of DataFusion's GroupValues:
//
//   - one integer-like column (integers, DATE, TIMESTAMP, DECIMAL,
//     BOOLEAN): intMap, a direct table for small non-negative keys in front
//     of an open-addressing table (ints.go);
//   - one string column: strMap, a string table whose short keys live in
//     the slot, with per-code ids for dictionary-coded batches (strmap.go,
//     strings.go);
//   - several columns, or one float: compositeKeys, each row's key as
//     fixed-width words (a NULL mask, then one word per column; strings
//     interned per column) in a word table (composite.go, words.go); while
//     the words fit fields of one 64-bit word (sized from the values seen)
//     the packed key goes to intGroups instead (packed.go); a lead integer key
//     that determines the others when the first batch shows one (lead.go),
//     and an encoded-key table for long, mostly distinct strings
//     (encoded.go).
//
// A join's build side is an Index (index.go): key -> the build rows
// holding it, laid out grouped by key once the build is complete and then
// only read, so the copies of a parallel join share one (each probing with
// a scratch of its own; a Map's Finder is its read-only lookup). NewIndex
// chooses once too: one integer key in intTable, a range table when the
// keys are dense enough (index_ints.go, index_range.go); several integer
// keys packed into one when their ranges fit, else numbered in the word
// table (index_multi.go); any other keys through a Map, rows grouped by
// id. There is one hash table per key shape, whoever uses it: intKeyTable
// for one int64 (GROUP BY's and a join's), keyTable for fixed-width words
// (composite keys, a join's wide integer tuples), strTable for strings.
//
// Keys with INTERVAL or nested (LIST, STRUCT, MAP) columns go through
// normKeys (normkeys.go): the inner Map sees each such column as a BLOB of
// its normal form (an interval's total length; a nested value's elements,
// nestedkey.go), and the row that created each id is kept as written.
//
// NULLs are keys: all NULLs of a column are one value, as GROUP BY and
// DISTINCT compare rows; IN, for which NULL never matches, tests validity
// itself, and an Index never adds or matches a row with a NULL key. Floats
// compare as SQL does: -0 equals 0 and every NaN is one value.
//
// Every table reports the bytes it holds (Bytes), so that memory
// accounting can be written once, against this package.
//
// # Files
//
// Five pairs of files need each other (tests/filecycles_test.go allows at
// most 5), each one type split by layout or phase: compositeKeys
// (composite.go) with its packed-word and lead-column layouts (packed.go,
// lead.go), which it switches between as keys arrive; the join index
// builder (index.go, index_ints.go) with its multi-column and range
// builds (index_multi.go, index_range.go); and New (map.go), which wraps
// keys that need normalizing (normkeys.go) around a table it chooses
// through New again. Storage the tables share (chunked.go, growth.go,
// batch.go) needs none of them.
package hashtab
