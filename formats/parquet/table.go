package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/b2sql/b2sql/columnar"
)

// Table is one Parquet file, or several files with one schema, seen as a
// single table. It implements the planner's Table, FilterPusher, RowCounter
// and ScanDescriber interfaces. A Table is safe for concurrent Scans; Close
// must not race with them.
type Table struct {
	name    string
	files   []*pqFile
	cols    []column
	schema  columnar.Schema
	skipped []string
	units   []unit // every row group of every file, in file order
	rows    int64
	// pidx caches the page indexes read so far (pageindex.go).
	pidx pageIndexes
	// cols past the schema's are the hidden columns of STRUCT fields
	// (fields.go): scanSchema names all of cols, fields finds them.
	scanSchema columnar.Schema
	fields     map[string]int
}

// pqFile is one open file of a table.
type pqFile struct {
	path   string
	size   int64
	f      *os.File  // nil for in-memory sources (tests, fuzzing)
	closer io.Closer // a storage.Source the table owns (source.go), or nil
	closed bool
	rdr    *file.Reader
	meta   *metadata.FileMetaData
	// warnings: what the file holds that is read in a lesser way than it
	// was written (an unknown logical type read as its physical type).
	warnings []string
	// src reads the file's bytes; legacyV2: its writer mislabels
	// compressed V2 pages (legacy.go).
	src      io.ReaderAt
	legacyV2 bool
	// arrow reads the file's nested columns (nested_read.go).
	arrow arrowFile
}

// unit is one row group: the scan's unit of work, pruning and parallelism.
type unit struct {
	file  int
	rg    int
	rows  int64
	first int64 // index of the unit's first row in the table
	// stats[c] are the statistics of exposed column c (ok false if none).
	stats []colStats
}

// Open opens a Parquet file, a glob of files (sorted by name) or a
// directory (all its *.parquet files) as one table. All files must map to
// the same columns (names and types, in order); otherwise the error names
// the first file that differs and wraps ErrSchemaMismatch. Files stay open
// until Close. Nested columns (LIST, MAP, STRUCT, repeated fields) are in
// the Schema, in file order, as LIST, MAP and STRUCT columns.
func Open(pattern string) (_ *Table, err error) {
	paths, err := expand(pattern)
	if err != nil {
		return nil, err
	}
	t := &Table{name: stem(pattern)}
	defer func() {
		if err != nil {
			t.Close()
		}
	}()
	for _, p := range paths {
		f, cols, skipped, err := openFile(p)
		if err != nil {
			return nil, err
		}
		if err := t.addFile(f, cols, skipped); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// addFile appends an opened file to the table, checking its schema against
// the first file's.
func (t *Table) addFile(f *pqFile, cols []column, skipped []string) error {
	t.files = append(t.files, f)
	i := len(t.files) - 1
	switch {
	case i == 0:
		t.cols, t.skipped = cols, skipped
		t.scanSchema = make(columnar.Schema, len(cols))
		t.fields = map[string]int{}
		for j, c := range cols {
			t.scanSchema[j] = c.field
			if c.key != "" {
				t.fields[c.key] = j
			}
		}
		t.schema = t.scanSchema[: len(cols)-len(t.fields) : len(cols)-len(t.fields)]
	default:
		if err := sameSchema(t.cols, cols); err != nil {
			return fileError(f.path, fmt.Errorf("%w with %s: %w", ErrSchemaMismatch, t.files[0].path, err))
		}
		// A column may be REQUIRED in one file and OPTIONAL in another.
		for j := range cols {
			t.scanSchema[j].Nullable = t.scanSchema[j].Nullable || cols[j].field.Nullable
		}
	}
	if err := t.addUnits(i, cols); err != nil {
		return fileError(f.path, err)
	}
	return nil
}

// openBytes opens an in-memory Parquet file as a one-file table (for tests
// and fuzzing).
func openBytes(name string, data []byte) (*Table, error) {
	rdr, cols, skipped, warnings, err := readFooter(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fileError(name, err)
	}
	t := &Table{name: stem(name)}
	f := &pqFile{path: name, size: int64(len(data)), rdr: rdr, meta: rdr.MetaData(), warnings: warnings,
		src: bytes.NewReader(data), legacyV2: legacyV2(rdr.MetaData())}
	if err := t.addFile(f, cols, skipped); err != nil {
		return nil, err
	}
	return t, nil
}

// expand resolves a pattern to a sorted list of files.
func expand(pattern string) ([]string, error) {
	if st, err := os.Stat(pattern); err == nil {
		if !st.IsDir() {
			return []string{pattern}, nil
		}
		pattern = filepath.Join(pattern, "*.parquet")
	}
	paths, err := filepath.Glob(pattern)
	if err != nil {
		return nil, fmt.Errorf("parquet: %s: %w", pattern, err)
	}
	if len(paths) == 0 {
		if !strings.ContainsAny(pattern, "*?[") {
			return nil, fmt.Errorf("parquet: %s: %w", pattern, os.ErrNotExist)
		}
		return nil, fmt.Errorf("parquet: %s: no files match: %w", pattern, os.ErrNotExist)
	}
	sort.Strings(paths)
	return paths, nil
}

// stem is the table name of a pattern: the base name without extension
// ("data/events.parquet" → "events").
func stem(pattern string) string {
	base := filepath.Base(strings.TrimRight(pattern, `/\`))
	if ext := filepath.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// openFile opens one file and maps its schema.
func openFile(path string) (pf *pqFile, cols []column, skipped []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("parquet: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("parquet: %w", err)
	}
	rdr, cols, skipped, warnings, err := readFooter(f, st.Size())
	if err != nil {
		return nil, nil, nil, fileError(path, err)
	}
	return &pqFile{path: path, size: st.Size(), f: f, rdr: rdr, meta: rdr.MetaData(), warnings: warnings,
		src: f, legacyV2: legacyV2(rdr.MetaData())}, cols, skipped, nil
}

// readFooter parses the footer of r (size bytes) and maps its schema;
// warnings name what the file holds that is read in a lesser way (see
// footer.go). Panics inside arrow-go on hostile footers become ErrCorrupt
// errors.
func readFooter(r interface {
	ReadAt([]byte, int64) (int, error)
	Seek(int64, int) (int64, error)
}, size int64) (rdr *file.Reader, cols []column, skipped, warnings []string, err error) {
	defer recoverCorrupt(&err)
	meta, warnings, err := readMetadata(r, size)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	rdr, err = file.NewParquetReader(r, file.WithReadProps(readProps()), file.WithMetadata(meta))
	if err != nil {
		return nil, nil, nil, nil, asCorrupt(err)
	}
	if meta.FileDecryptor != nil || meta.IsSetEncryptionAlgorithm() {
		return nil, nil, nil, nil, fmt.Errorf("%w: encrypted file", ErrUnsupported)
	}
	// WriterVersion is computed lazily and cached without a lock; compute
	// it now so that concurrent scans only read it. The bloom filter
	// reader is created lazily without a lock too.
	meta.WriterVersion()
	rdr.GetBloomFilterReader()
	// Layout first: a corrupt file is reported as corrupt even when none of
	// its columns is of a type this package reads.
	if err := checkLayout(meta, size); err != nil {
		return nil, nil, nil, nil, err
	}
	cols, skipped, notes, err := mapSchema(meta.Schema, geoParquetCRS(meta.KeyValueMetadata().FindValue("geo")))
	if err != nil {
		return nil, nil, nil, nil, asCorrupt(err)
	}
	cols = append(cols, fieldColumns(meta.Schema, cols)...) // hidden, after the exposed ones
	return rdr, cols, skipped, append(warnings, notes...), nil
}

// readProps are the reader properties of every file. A buffered stream
// reads each column chunk through a fixed-size buffer instead of
// allocating the whole chunk per row group, which keeps the garbage per
// scan proportional to the batch, not to the file.
func readProps() *parquet.ReaderProperties {
	p := parquet.NewReaderProperties(bufferPool)
	p.BufferedStreamEnabled = true
	p.BufferSize = streamBuffer
	return p
}

// streamBuffer is the read buffer per column chunk being decoded. Each
// fill reads this much, and a seek through the offset index (late
// materialization, page index ranges) refills it from the new page, so a
// buffer much larger than a page (the writer's are 64 KiB) re-reads the
// rest of the chunk at every seek and allocates a chunk-sized buffer per
// chunk: 1 MiB cost a point lookup 2.5 MB and a 1% scattered selection
// 37 MB of garbage per scan of the benchmark file, 64 KiB 0.7 and 6.5 MB
// (BenchmarkFilteredScan). And the buffer is the smallest arrow-go's page
// reader keeps (it peeks 16 KiB for a page header): a page body longer
// than what is left buffered is read straight into the reader's page
// buffer, so at 16 KiB only the first 16 KiB of a 64 KiB page is copied
// out of this buffer, where at 64 KiB the whole page was (TPC-H SF1, 22
// queries: 3-5% less CPU).
var streamBuffer int64 = 16 << 10

// checkLayout verifies that every column chunk lies inside the file, so
// that a lying footer cannot make the reader allocate more than the file
// size or read past its end.
func checkLayout(meta *metadata.FileMetaData, size int64) error {
	ncols := meta.Schema.NumColumns()
	for i, rg := range meta.RowGroups {
		if len(rg.Columns) != ncols {
			return corruptf("row group %d has %d column chunks, schema has %d columns", i, len(rg.Columns), ncols)
		}
		if rg.NumRows < 0 {
			return corruptf("row group %d has %d rows", i, rg.NumRows)
		}
		for j, cc := range rg.Columns {
			md := cc.MetaData
			if md == nil {
				return corruptf("row group %d column %d: no metadata", i, j)
			}
			start := md.DataPageOffset
			if md.DictionaryPageOffset != nil && *md.DictionaryPageOffset > 0 && *md.DictionaryPageOffset < start {
				start = *md.DictionaryPageOffset
			}
			n := md.TotalCompressedSize
			if start < 0 || n < 0 || start > size || n > size-start {
				return corruptf("row group %d column %d: chunk at offset %d of %d bytes lies outside the %d-byte file", i, j, start, n, size)
			}
			// A flat column has one level per row; fewer means the row
			// count is a lie (and a scan of no columns would trust it).
			if meta.Schema.Column(j).MaxRepetitionLevel() == 0 && md.NumValues < rg.NumRows {
				return corruptf("row group %d column %d: %d values for %d rows", i, j, md.NumValues, rg.NumRows)
			}
		}
	}
	return nil
}

// sameSchema reports how b differs from a, or nil.
func sameSchema(a, b []column) error {
	if len(a) != len(b) {
		return fmt.Errorf("%d columns instead of %d", len(b), len(a))
	}
	for i := range a {
		fa, fb := a[i].field, b[i].field
		if fa.Name != fb.Name || a[i].key != b[i].key {
			return fmt.Errorf("column %d is %q instead of %q", i, fb.Name, fa.Name)
		}
		if fa.Type != fb.Type {
			return fmt.Errorf("column %q is %s instead of %s", fa.Name, fb.Type, fa.Type)
		}
		if a[i].kind != b[i].kind || a[i].mul != b[i].mul || a[i].div != b[i].div {
			return fmt.Errorf("column %q has a different physical encoding", fa.Name)
		}
	}
	return nil
}

// addUnits appends the row groups of file fi and their statistics.
func (t *Table) addUnits(fi int, cols []column) (err error) {
	defer recoverCorrupt(&err)
	pf := t.files[fi]
	for rg := 0; rg < pf.rdr.NumRowGroups(); rg++ {
		rgm := pf.rdr.MetaData().RowGroup(rg)
		u := unit{file: fi, rg: rg, rows: rgm.NumRows(), first: t.rows, stats: make([]colStats, len(cols))}
		for c := range cols {
			s, err := chunkStats(rgm, &cols[c])
			if err != nil {
				return fmt.Errorf("row group %d: column %q: statistics: %w", rg, cols[c].field.Name, asCorrupt(err))
			}
			u.stats[c] = s
		}
		t.units = append(t.units, u)
		t.rows += u.rows
	}
	return nil
}

// Name returns the table's default name: the stem of the pattern's base
// name ("data/events.parquet" → "events").
func (t *Table) Name() string { return t.name }

// Files returns the paths of the table's files, in scan order.
func (t *Table) Files() []string {
	out := make([]string, len(t.files))
	for i, f := range t.files {
		out[i] = f.path
	}
	return out
}

// RowGroups returns the number of row groups over all files.
func (t *Table) RowGroups() int { return len(t.units) }

// Schema returns the table's columns (those left out are in Skipped).
func (t *Table) Schema() columnar.Schema { return t.schema }

// Skipped lists the dotted paths of the leaf columns that the table does
// not expose (FLOAT16, nested fields of a shape it cannot map).
func (t *Table) Skipped() []string { return t.skipped }

// Warnings returns, for each file, what it holds that the table reads in
// a lesser way than it was written (a column's unknown logical type read
// as its physical type), prefixed by the file's path.
func (t *Table) Warnings() []string {
	var out []string
	for _, f := range t.files {
		for _, w := range f.warnings {
			out = append(out, "parquet: "+f.path+": "+w)
		}
	}
	return out
}

// RowCount returns the number of rows from metadata.
func (t *Table) RowCount() int64 { return t.rows }

// Close closes the files. It is safe to call more than once.
func (t *Table) Close() error {
	var errs []error
	for _, f := range t.files {
		if !f.closed && f.f != nil {
			errs = append(errs, f.f.Close())
		}
		if !f.closed && f.closer != nil {
			errs = append(errs, f.closer.Close())
		}
		f.closed = true
	}
	return errors.Join(errs...)
}

// FieldColumn returns the hidden column holding field path of STRUCT
// column col (planner.FieldColumner).
func (t *Table) FieldColumn(col int, path []int) (int, bool) {
	i, ok := t.fields[fieldKey(col, path)]
	return i, ok
}

// ScanSchema is Schema followed by the hidden field columns, named by
// their dotted paths (s.a, s.x.y).
func (t *Table) ScanSchema() columnar.Schema { return t.scanSchema }
