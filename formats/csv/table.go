package csv

import (
	"github.com/b2sql/b2sql/storage"

	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/internal/strftime"
)

// Table is one CSV file, or several read with the first one's dialect and
// columns, seen as one table. It implements the planner's Table and
// UnitScanner interfaces: an uncompressed file is read in parallel byte
// ranges (chunks) that start on record boundaries; a compressed file is
// one unit read as a stream. Safe for concurrent scans.
type Table struct {
	name    string
	opts    Options
	sniffed *Sniffed
	schema  columnar.Schema
	convs   []converter
	files   []*file
	// chunkSize is the nominal size of a parallel range.
	chunkSize int64

	// mem holds the data of a table opened from bytes (tests, fuzzing).
	mem []byte

	mu         sync.Mutex
	rejects    []Reject
	rejectsPer map[string]int // per file, under rejects_limit
}

// file is one file of a table and its chunk boundaries, found lazily and
// in order (boundary k+1 is searched from boundary k).
type file struct {
	*storage.TextFile
	mu     sync.Mutex
	bounds []bound // bounds[k]: where chunk k starts
}

// bound is a record boundary: its offset and the line number of the
// record that starts there.
type bound struct {
	off  int64
	line int64
}

// DefaultChunkSize is the nominal byte size of a parallel range.
const DefaultChunkSize = 8 << 20

// sampleBytes bounds what the sniffer reads: the rows of the sample, or
// this many bytes, whichever comes first.
const sampleBytes = 8 << 20

// Open sniffs the first of paths (or uses the options' columns) and opens
// every path as one table with those columns. The table's name is the
// first file's stem.
func Open(paths []string, o Options) (*Table, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("csv: no files: %w", os.ErrNotExist)
	}
	t := &Table{name: stem(paths[0]), opts: o, chunkSize: DefaultChunkSize}
	if o.BufferSize > 0 {
		t.chunkSize = o.BufferSize
	}
	for _, p := range paths {
		tf, err := storage.OpenTextFile(p, o.Compression, o.Open)
		if err != nil {
			t.Close()
			return nil, fmt.Errorf("csv: %w", err)
		}
		if tf.Encoding, err = storage.TextEncoding(o.Encoding); err != nil {
			tf.Close()
			t.Close()
			return nil, fmt.Errorf("csv: %w: %w", ErrOption, err)
		}
		t.files = append(t.files, &file{TextFile: tf})
	}
	n := sampleBytes
	if o.SampleSize < 0 {
		n = 64 << 20
	}
	f0 := t.files[0]
	sample, eof, err := f0.ReadPrefix(n)
	if err != nil {
		return nil, fmt.Errorf("csv: %s: %w", f0.Path, err)
	}
	sn, err := sniff(sample, &o, eof)
	if err != nil {
		return nil, fmt.Errorf("csv: %s: %w", f0.Path, err)
	}
	return t, t.init(sn)
}

// OpenBytes opens in-memory CSV data as a table (for tests and fuzzing):
// the data is written nowhere; name is used in errors.
func openBytes(name string, data []byte, o Options) (*Table, error) {
	sn, err := sniff(data, &o, true)
	if err != nil {
		return nil, fmt.Errorf("csv: %s: %w", name, err)
	}
	t := &Table{name: stem(name), opts: o, chunkSize: DefaultChunkSize}
	t.files = []*file{{TextFile: &storage.TextFile{Path: name, Size: int64(len(data))}}}
	t.mem = data
	return t, t.init(sn)
}

// init sets the schema and converters from what the sniffer found.
func (t *Table) init(sn *Sniffed) error {
	t.sniffed = sn
	if sn.Skip > 0 {
		t.opts.Skip = sn.Skip
	}
	for i, c := range sn.Columns {
		if !supported(c.Type, t.opts.Cast != nil) {
			return fmt.Errorf("%w: column %q: type %s cannot be read from CSV", ErrOption, c.Name, c.Type)
		}
		cv := converter{t: c.Type, decSep: t.opts.decSep(), cast: t.opts.Cast}
		var err error
		if f := sn.DateFormat[i]; f != "" {
			if cv.date, err = strftime.Parse(f); err != nil {
				return fmt.Errorf("%w: dateformat: %w", ErrOption, err)
			}
		}
		if f := sn.TimestampFormat[i]; f != "" {
			if cv.ts, err = strftime.Parse(f); err != nil {
				return fmt.Errorf("%w: timestampformat: %w", ErrOption, err)
			}
		}
		t.convs = append(t.convs, cv)
		name := c.Name
		if t.opts.NormalizeNames {
			name = normalizeName(name, t.opts.Keyword)
		}
		t.schema = append(t.schema, columnar.Field{Name: name, Type: c.Type, Nullable: true})
	}
	return nil
}

// stem is a path's base name without extensions ("data/x.csv.gz" → "x").
func stem(p string) string {
	base := filepath.Base(strings.TrimRight(p, `/\`))
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}

// Name returns the table's default name (the first file's stem).
func (t *Table) Name() string { return t.name }

// Schema returns the columns.
func (t *Table) Schema() columnar.Schema { return t.schema }

// Sniffed returns what the sniffer found (or the options fixed).
func (t *Table) Sniffed() *Sniffed { return t.sniffed }

// Files returns the table's file paths.
func (t *Table) Files() []string {
	out := make([]string, len(t.files))
	for i, f := range t.files {
		out[i] = f.Path
	}
	return out
}

// Rejects returns the rows dropped so far by ignore_errors with
// store_rejects, in no particular order across parallel chunks.
func (t *Table) Rejects() []Reject {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Reject(nil), t.rejects...)
}

func (t *Table) addReject(r Reject) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if lim := t.opts.RejectsLimit; lim > 0 {
		if t.rejectsPer == nil {
			t.rejectsPer = map[string]int{}
		}
		if t.rejectsPer[r.File] >= lim {
			return
		}
		t.rejectsPer[r.File]++
	}
	if t.opts.OnReject != nil {
		t.opts.OnReject(r)
		return
	}
	t.rejects = append(t.rejects, r)
}

// Close closes the open files. It is safe to call more than once.
func (t *Table) Close() error {
	for _, f := range t.files {
		f.TextFile.Close()
	}
	return nil
}

// parallel reports whether file f is read in byte ranges.
func (t *Table) parallel(f *file) bool {
	if t.opts.Parallel.Set && !t.opts.Parallel.V {
		return false
	}
	return f.Comp == "" && f.Encoding == nil && t.mem == nil
}

// ScanUnits returns one unit per chunk of every uncompressed file, and one
// per compressed file, in file order. spec.Threads and spec.Limit are
// ignored.
func (t *Table) ScanUnits(ctx context.Context, spec index.ScanSpec) ([]func(ctx context.Context) (columnar.Reader, error), error) {
	if err := t.checkCols(spec.Cols); err != nil {
		return nil, err
	}
	var out []func(ctx context.Context) (columnar.Reader, error)
	for _, f := range t.files {
		f := f
		if !t.parallel(f) {
			out = append(out, func(ctx context.Context) (columnar.Reader, error) {
				return t.streamReader(f, spec.Cols)
			})
			continue
		}
		n := max(1, (f.Size+t.chunkSize-1)/t.chunkSize)
		for k := range n {
			out = append(out, func(ctx context.Context) (columnar.Reader, error) {
				buf, b, err := t.chunk(f, int(k))
				if err != nil {
					return nil, err
				}
				r := t.newReader(f, spec.Cols, buf, b.line, nil)
				r.base = b.off
				r.pooled = true
				return r, nil
			})
		}
	}
	if spec.Stats != nil {
		spec.Stats.UnitName = "chunks"
		spec.Stats.UnitsTotal += int64(len(out))
	}
	return out, nil
}

// Scan reads the table's units one after the other.
func (t *Table) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	units, err := t.ScanUnits(ctx, spec)
	if err != nil {
		return nil, err
	}
	s := columnar.Schema{}
	for _, c := range spec.Cols {
		s = append(s, t.schema[c])
	}
	return columnar.Chain(s, units, spec.Limit), nil
}

func (t *Table) checkCols(cols []int) error {
	for _, c := range cols {
		if c < 0 || c >= len(t.schema) {
			return fmt.Errorf("csv: %s: scan of column %d, table has %d", t.name, c, len(t.schema))
		}
	}
	return nil
}

// dataStart returns where f's records start: after a UTF-8 BOM, the
// skipped lines and the header. unterminated says the header opened a
// quote that prefix does not close (an error when prefix is the whole
// file: the header swallowed every record after it).
func (t *Table) dataStart(prefix []byte) (off int64, line int64, unterminated bool) {
	p := 0
	if bytes.HasPrefix(prefix, []byte("\xef\xbb\xbf")) {
		p = 3
	}
	line = 1
	for k := 0; k < t.opts.Skip && p < len(prefix); k++ {
		i := bytes.IndexByte(prefix[p:], '\n')
		if i < 0 {
			p = len(prefix)
			break
		}
		p += i + 1
		line++
	}
	if t.sniffed.Header && p < len(prefix) {
		lx := newLexer(t.sniffed.Dialect)
		for p < len(prefix) {
			next, _, comment, lerr := lx.record(prefix, p, nil)
			p = next
			unterminated = lerr != nil && lerr.err == errUnterminated
			line++
			if !comment {
				break
			}
		}
	}
	return int64(p), line, unterminated
}

// chunk returns the bytes of chunk k of f (whole records) and its start.
func (t *Table) chunk(f *file, k int) ([]byte, bound, error) {
	src, err := f.Source()
	if err != nil {
		return nil, bound{}, fmt.Errorf("csv: %w", err)
	}
	f.mu.Lock()
	if len(f.bounds) == 0 {
		head := make([]byte, min(f.Size, 1<<20))
		n, err := src.ReadAt(head, 0)
		if err != nil && err != io.EOF {
			f.mu.Unlock()
			return nil, bound{}, fmt.Errorf("csv: %s: %w", f.Path, err)
		}
		off, line, unterminated := t.dataStart(head[:n])
		if unterminated && int64(n) == f.Size {
			f.mu.Unlock()
			return nil, bound{}, &RecordError{File: f.Path, Line: 1, Err: ErrMalformed, Msg: "unterminated quoted field at the end of the file"}
		}
		f.bounds = append(f.bounds, bound{off, line})
	}
	for len(f.bounds) <= k {
		_, err := t.nextBound(f, src, nil)
		if err != nil {
			f.mu.Unlock()
			return nil, bound{}, err
		}
	}
	start := f.bounds[k]
	if len(f.bounds) > k+1 {
		end := f.bounds[k+1].off
		f.mu.Unlock()
		buf := getBuf(int(end - start.off))
		if _, err := src.ReadAt(buf, start.off); err != nil && err != io.EOF {
			return nil, bound{}, fmt.Errorf("csv: %s: %w", f.Path, err)
		}
		return buf, start, nil
	}
	defer f.mu.Unlock()
	buf, err := t.nextBound(f, src, []byte{})
	return buf, start, err
}

// nextBound finds the boundary after the last known one (f.mu held) by
// reading the chunk it starts; keep non-nil asks for the chunk's bytes.
func (t *Table) nextBound(f *file, src storage.Source, keep []byte) ([]byte, error) {
	last := f.bounds[len(f.bounds)-1]
	k := int64(len(f.bounds) - 1)
	target := (k + 1) * t.chunkSize
	if last.off >= f.Size {
		f.bounds = append(f.bounds, bound{f.Size, last.line})
		return keep[:0:0], nil
	}
	want := max(target, last.off+1) - last.off
	limit := want + int64(t.opts.maxLine())
	buf := getBuf(int(min(want+max(want/8, 4<<10), f.Size-last.off)))
	for {
		n, err := src.ReadAt(buf, last.off)
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("csv: %s: %w", f.Path, err)
		}
		buf = buf[:n]
		eof := last.off+int64(n) >= f.Size
		at, recs, ok, unterminated := t.sniffed.Dialect.boundary(buf, int(min(want, int64(n))), eof)
		if unterminated {
			return nil, &RecordError{File: f.Path, Line: last.line + recs, Err: ErrMalformed, Msg: "unterminated quoted field at the end of the file"}
		}
		if ok {
			b := bound{last.off + int64(at), last.line + recs}
			f.bounds = append(f.bounds, b)
			if keep != nil {
				return buf[:at], nil
			}
			putBuf(buf)
			return nil, nil
		}
		if int64(len(buf)) >= limit {
			return nil, &RecordError{File: f.Path, Line: last.line, Err: ErrLineSize, Msg: fmt.Sprintf("no record ends within max_line_size (%d bytes) after byte %d", t.opts.maxLine(), last.off+want)}
		}
		putBuf(buf)
		buf = getBuf(int(min(int64(len(buf))*2, f.Size-last.off, limit)))
	}
}

// Chunk buffers are recycled (storage.GetBuf): a chunk's strings live in
// its buffer until its reader is closed.
var getBuf, putBuf = storage.GetBuf, storage.PutBuf

// IO reports what the table's remote files fetched since they were
// opened (planner.IOReporter); ok is false when every file is local.
func (t *Table) IO() (index.IOStats, bool) {
	st, size, ok := storage.SumRemote(t.files)
	return index.IOStats{Requests: st.Requests, Bytes: st.Bytes, Size: size}, ok
}
