// Package parquet owns b2sql's Parquet support: Open turns one file, or a
// glob of files sharing one schema, into a table the planner can scan, and
// Writer writes columnar batches back out as Parquet.
//
// Reading goes through arrow-go's low-level file and metadata packages
// (typed column chunk readers), not through Arrow records: values are
// decoded straight into reusable columnar vectors, which avoids building
// an Arrow array per batch and converting it again.
//
// Mapping of Parquet types to SQL types:
//
//	BOOLEAN                                   → BOOLEAN
//	INT32/INT64 (+ INT(8..64, signed))        → TINYINT .. BIGINT
//	INT32/INT64 (+ INT(8..64, unsigned))      → UTINYINT .. UBIGINT
//	FLOAT, DOUBLE                             → FLOAT, DOUBLE
//	DECIMAL(p ≤ 18, s) on any physical type   → DECIMAL(p, s)
//	DECIMAL(p > 18, s)                        → DOUBLE (rounded)
//	BYTE_ARRAY + STRING/UTF8/ENUM/JSON        → VARCHAR
//	BYTE_ARRAY + GEOMETRY/GEOGRAPHY (WKB)     → GEOMETRY (shown as WKT)
//	other BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY    → BLOB
//	DATE                                      → DATE
//	TIMESTAMP(ms|µs), INT96 (Spark/Impala),
//	legacy TIMESTAMP_MILLIS/MICROS            → TIMESTAMP (µs)
//	TIMESTAMP(ns)                             → TIMESTAMP_NS
//	TIMESTAMP(isAdjustedToUTC, any unit)      → TIMESTAMPTZ (µs, floor for ns)
//	TIME(ms|µs|ns)                            → TIME (µs of the day, floor for ns)
//	TIME(isAdjustedToUTC)                     → TIMETZ at +00
//
// Nested columns (a top-level LIST, MAP or STRUCT group, or a repeated
// field) map to columnar LIST, MAP and STRUCT types by arrow-go's schema
// resolution, which applies the format's backward-compatibility rules to
// every list and map layout writers produce, and their leaves map as flat
// columns of the same Parquet types do (nestedType); they are read through
// arrow-go's record-level reader, which decodes repetition and definition
// levels a batch at a time into offsets and validity (nested_read.go);
// lists of numbers and booleans, the common case, skip the Arrow arrays:
// listReader turns the levels of arrow-go's typed column reader into list
// ranges and validity directly (nested_list.go). A MAP whose key is
// OPTIONAL, which arrow-go's schema resolution refuses, is read the same
// way from its key and value leaves (nested_map.go), as DuckDB reads it.
// Each field of a STRUCT column, at any depth through STRUCTs, is also a
// hidden column of its own (FieldColumn, ScanSchema; fields.go): s.a is
// read from its leaf alone, flat when it is one leaf, with the leaf's
// statistics and page index for filters, and NULL where s is.
// A legacy 2-level list whose repeated group is LIST-annotated is a list
// of lists, as parquet-mr and DuckDB read it (legacyListOfLists). A
// VARIANT group, shredded or not, reads as a VARCHAR of the value's JSON
// text, as DuckDB's CAST(v AS JSON) gives it (variant.go). FLOAT16
// columns and nested fields arrow-go cannot map (a MAP with an OPTIONAL
// key whose leaves are not numbers, booleans or strings; every nested
// column of a file holding such a map, whose schema arrow-go refuses
// whole) are left out of the Schema: Table.Skipped names them, and a file
// with no other column fails to open with ErrUnsupported naming them and
// their types. A logical type this reader does not know (a
// newer format's) is read as its physical type; Table.Warnings says so.
//
// Before arrow-go decodes a footer, footer.go checks it (thrift.go walks
// the Thrift bytes): every list fits in the bytes left, the schema is one
// tree whose leaves have a physical type, unknown logical types are left
// out. An encrypted footer ("PARE") is ErrUnsupported, never corruption.
// codecs.go adds the LZ4 codec (5) in its Hadoop-framed and raw-block
// variants to arrow-go's codec registry and decodes an empty page region
// (a DataPage V2 of NULLs only) as empty under every codec. Every column
// chunk is read through countingPager (pager.go), which refuses pages
// arrow-go would panic or spin on: an encoding the format does not define
// for the column's type, a DELTA page with fewer values than its levels
// define. Files of parquet-cpp 1.x (pyarrow ≤ 3) get their V2 pages'
// is_compressed flag corrected first (legacy.go, ARROW-17100).
//
// Scans are parallel over row groups. Output keeps file order with one
// thread or a LIMIT, so LIMIT without ORDER BY is deterministic (otherwise
// row groups arrive in the order workers finish them); memory is
// bounded by the row groups in flight (a few per worker), not by file size.
//
// A pushed filter (a conjunction of index.Pred) is applied Exact: the scan
// emits only matching rows. On the way it skips, each rule asking
// spec.On(rule) and counting what it skipped in ScanStats:
//
//	BlockPruning         row groups whose column chunk statistics prove
//	                     the filter false (stats.go)
//	BloomFilter          row groups whose bloom filter holds none of the
//	                     values of an = or IN (bloom.go)
//	PageIndex            pages whose ColumnIndex min/max/null count prove
//	                     the filter false; the OffsetIndex turns them into
//	                     row ranges that every column skips (pageindex.go)
//	LateMaterialization  filter columns are decoded first; the other columns
//	                     only on the pages holding selected rows, seeking
//	                     over the rest (filtered.go)
//	DictCodes            dictionary-encoded chunks are read by codeReader
//	                     (dictread.go): strings as codes, which filters
//	                     compare on the dictionary once per chunk and which
//	                     go out as codes to consumers that ask (DictCols),
//	                     numbers gathered from the converted dictionary
//
// DELTA_BINARY_PACKED integer chunks (the writer's choice for sorted or
// smooth integers) are decoded by codeReader too (delta.go), a page at a
// time in one pass, rather than by arrow-go's decoder; this is a decoder,
// not a scan rule, and changes nothing but speed. Bit-packed values (DELTA
// deltas, numeric dictionary indices, the codes and levels of the
// RLE/bit-packed hybrid) are decoded 32 at a time by a function per bit
// width, generated by internal/bitgen (go generate): constant shifts and
// masks, each packed word loaded once.
//
// Numeric dictionary pages are indexed by hybrid run when loaded and their
// indices extracted as rows are read (hybridlazy.go): a filter column is
// decoded for the rows earlier filter steps kept, a late-materialized one
// for the rows the filter kept, when those are under half the batch.
//
// The filter itself is compiled per row group (filtersteps.go): the
// comparisons of one numeric column merge into one range test, evaluated in
// a single pass that shrinks the selection in place, and a filter column is
// decoded only while rows of the batch remain selected.
//
// A hash join's runtime join filter reaches the scan as two predicates
// (planner/joinfilter.go): the BETWEEN range of its build keys, which skips
// row groups and pages like any range, and an InSet key set (index.KeySet),
// a filter step over the rows left (stepSet), so that the other columns of
// the rows it drops are decoded late or not at all. The set never skips a
// row group or page, and is no longer tested once it drops almost nothing
// (index.KeySet.Active).
//
// NaN (above every number, absent from Parquet min/max), NULL-only pages
// and missing or malformed indexes and filters mean "maybe". The rows a
// filter keeps do not depend on the rules: they only change what is
// decompressed (ScanStats.BytesDecompressed, PagesSkipped).
//
// Writer writes through a temporary file renamed into place. It buffers a
// row group (122,880 rows by default, like DuckDB) and picks each column's
// encoding from the first one: a dictionary when distinct values are few,
// DELTA_BINARY_PACKED for sorted or smooth integers (ids, timestamps), and
// no Snappy where Snappy does not shrink the data, because decompression
// dominates the decode time of plain numbers. Statistics and the page index
// are always written, with 64 KiB data pages so that the page index has a
// useful grain, and bloom filters on integer and string columns not
// written DELTA (see bloomPays).
//
// Nested columns are written in the standard LIST/MAP layout: each row is
// shredded into its leaf columns with repetition and definition levels
// (nested_write.go); arrow-go's column writers start pages on row
// boundaries, so the page index stays valid for them.
//
// Every error names the file (and row group and column where known) and
// wraps ErrCorrupt when the input is malformed; panics inside arrow-go on
// hostile input are recovered and reported the same way.
//
// # Files
//
// Sixteen pairs of files need each other (tests/filecycles_test.go allows
// at most 16), each one type split by phase or concern. A scan is one plan
// and scanner (scan.go, stats.go) whose units (units.go), prefetching
// source (source.go), filtered page decoding (filtered.go) and top-k
// pruning (topk.go) read its state while it calls them. The table
// (table.go) opens and keeps what its legacy, nested and page-index
// readers (legacy.go, nested_read.go, pageindex.go) and its statistics
// read back. The dictionary readers (dictread.go, dictfixed.go) and the
// code filters (codefilter.go, rowfilter.go) share their state; nested
// schemas and writers (nested_schema.go, nested_write.go) recurse through
// the flat ones (schema.go, writer.go).
package parquet
