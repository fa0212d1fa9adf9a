// Package ctable exposes python-blosc2 containers as SQL tables: b2nd arrays
// (ArrayTable, OpenArray) and CTables stored as a .b2d directory or a .b2z
// zip (Table, Open), and writes CTables python-blosc2 opens (Writer,
// Create). It owns the mapping between those files and columnar schemas
// and batches, NULL handling, tombstoned rows, and python-blosc2's SUMMARY
// index sidecars (read for block pruning, built when writing). Chunk,
// frame and b2nd encoding belong to package b2; this package only adds
// what b2 lacks for containers: a msgpack reader/writer that keeps map
// order, VL-blocks chunks for BatchArrays, and the zip directory (spec:
// shared/specs/blosc2-format.md §4–§7).
//
// API: OpenArray and Open return tables implementing the planner's Table,
// FilterPusher, RowCounter, ScanDescriber and UnitScanner interfaces
// structurally; Metadata lists vlmeta; Create/Write/Close write a table.
//
// A CTable is a tree of Blosc2 frames:
//
//	T.b2d/                         (or the same names as STORED members of T.b2z)
//	├── embed.b2e                  TreeStore bookkeeping, no table data
//	├── _meta.b2f                  empty frame; vlmeta = manifest: kind, version,
//	│                              schema (JSON text), value_epoch, index_catalog
//	├── _valid_rows.b2nd           bool[physical rows]: false = deleted row
//	├── _vlmeta.b2f                optional; vlmeta = user attributes
//	├── _cols/
//	│   ├── <name>.b2nd            fixed-width column (numbers, bool, complex,
//	│   │                          timestamp, U/S strings); utf8 offsets (their
//	│   │                          vlmeta b2sql_string_summary: b2sql's per-block
//	│   │                          string min/max); dict codes
//	│   ├── <name>.notnull.b2nd    mask nulls: true = value present
//	│   ├── <name>.utf8.b2nd       utf8 bytes (offsets are in <name>.b2nd)
//	│   ├── <name>.b2b             vlstring/vlbytes: BatchArray of msgpack items;
//	│   │                          struct/list: msgpack maps/arrays (nested.go);
//	│   │                          object: any msgpack value, MAP (object.go)
//	│   └── <name>_dict.b2b        dictionary values (code = position)
//	└── _indexes/<name>/
//	    ├── summary.block.b2nd     [(min, max, flags)] per block of rows
//	    └── full.*.b2nd            FULL: summaries per chunk/block/subblock,
//	                               values sorted, their row positions, and
//	                               [(start, end)] of each values chunk (l1)
//	                               and block (l2)
//
// Why it is read the way it is:
//
//   - The schema comes from the manifest alone, so opening a table reads no
//     column data; a column's frames are opened the first time a scan needs
//     it, which also makes SELECT of two columns of a wide table cheap. The
//     exception is an `object` column (python-blosc2's kind for a MAP and
//     for schema-less values) that b2sql did not write: its type is
//     inferred from its first 20,480 rows at Open, as DuckDB's read_json
//     infers a file's (object.go).
//   - Physical row i of every column is the same row; _valid_rows decides
//     which are live (deletes only clear bits), and its length is the
//     table's physical extent: longer columns (capacity, untrimmed varlen
//     columns) are cut, shorter ones are corrupt.
//   - A .b2z is mapped once and every member frame is a sub-slice of the
//     mapping, as python-blosc2 opens them; nothing is extracted. Chunk
//     bytes, there as in a .b2d, are read with pread (package b2), so a
//     scan's resident memory is its buffers, not the pages it has read.
//   - SUMMARY extrema cover physical rows including deleted and padding
//     rows, so they are bounds of the live values and prune safely; an
//     index marked stale, built over fewer rows than the table has, or at
//     another value_epoch is never used.
//   - python-blosc2 builds no SUMMARY for utf8() columns, so the Writer
//     keeps one of its own where python-blosc2 and c-blosc2 never look: the
//     vlmeta b2sql_string_summary of the column's offsets array, min and
//     max of each block of rows (strsummary.go gives the layout). It prunes
//     and answers MIN/MAX as a SUMMARY index does, but only while it covers
//     every physical row at the table's value_epoch (python-blosc2 and
//     b2sql bump the epoch on every change of values or append).
//   - Only index kinds whose block level is known to summarize the values
//     (summary, bucket, partial, full, opsi) prune; a kind a newer
//     python-blosc2 names, or a FULL index over a dictionary column's ranks
//     (dict_rank), is listed in EXPLAIN as not used. A utf8 column's FULL
//     index (utf8_rank: alphabetical ranks and their on-disk vocabulary)
//     turns string comparisons into rank ranges, for lookups and for
//     skipping blocks by the ranks' block summary (rankprune.go).
//   - A python-blosc2 remote reference (RemoteCTable.save, RemoteStore.save:
//     embed.b2e carries b2remote_manifest) holds no local table: Open
//     returns a *RemoteReference (ErrUnsupported) naming the source, which
//     internal/catalog opens instead when it is a b2z table at the root of a
//     remote container or a Parquet file.
//   - A FULL index answers =, IN, ranges and BETWEEN with two binary
//     searches (l2, then one values block) and the positions of the
//     matches; the scan then reads only their blocks and rows, while at
//     most 2% of the rows match (lookup.go says how that was measured).
//     The same sorted values stream rows in column order for ORDER BY …
//     LIMIT (ScanOrdered), fetching blocks as rows are pulled.
//   - CreateIndex, DropIndex and Reindex write index sidecars in
//     python-blosc2's layout and geometry as a new version of the table,
//     published like a Change (one atomic exchange; .b2z rezipped); the
//     sort behind a FULL index spills sorted runs and merges them.
//   - Complex numbers have no SQL type: a complex column c becomes two
//     columns c_re and c_im.
//   - A struct stored as dotted leaf columns (trip.lon, trip.lat, named in
//     the schema's metadata.struct_parents, as python-blosc2's from_arrow
//     writes it and the Writer writes a STRUCT) is one STRUCT column
//     assembled from its leaves, NULL where every leaf is; each leaf is
//     also a hidden column that trip.lon reads alone (leaves.go).
//   - A dictionary() column has one dictionary for the whole column, so a
//     scan whose consumer asks for codes (index.ScanSpec.DictCols) hands
//     them over as a dict.Dict plus int32 codes beside the strings, which
//     alias the dictionary (no copy): GROUP BY, DISTINCT and filters then
//     compare integers.
//   - Scans split the physical rows into units of whole index blocks of at
//     most 8192 rows, decoded in parallel (package b2 decompresses only the
//     blocks a range needs); one batch per run of surviving blocks.
//   - The writer streams every column chunk by chunk into a temporary tree
//     renamed (or zipped) into place on Close. A VARCHAR column's storage
//     is chosen from its first values: dictionary() for few repeated
//     values, string(max_length) for short identifiers, utf8() otherwise,
//     falling back to utf8() by re-reading its staging file if later values
//     break the choice.
//
// # Files
//
// Fifteen pairs of files need each other (tests/filecycles_test.go allows
// at most 15), each one type split by phase or concern. A scan is one plan
// (scan.go) whose phases have files of their own (unitreader.go,
// scan_ahead.go, lookup.go, rankprune.go, scan_topk.go) and read the
// plan's state while the plan calls them; ordered scans likewise read
// ahead (ordered_ahead.go). A write is one change (change.go) whose
// column appends and metadata are in colappend.go and changemeta.go; the
// writer's string members (stringwrite.go) and the FULL index build and
// its writing (indexbuild.go, indexwrite.go) are split the same way.
// Column readers (column.go) hand out block views (blockview.go) and
// recurse into nested columns (nested.go), whose schema entries the
// schema parser (schema.go) builds and reads; a FULL index (fullindex.go)
// loads its rank summary (rankindex.go), which reads the index's bounds;
// and the store (store.go) prefetches zip members (zip_prefetch.go) that
// read its directory.
package ctable
