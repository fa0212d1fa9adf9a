package json

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/valyala/fastjson"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/internal/strftime"
	"github.com/b2sql/b2sql/storage"
)

// Table is one JSON file, or several read with the first one's columns,
// as one table. It implements the planner's Table and UnitScanner
// interfaces: an uncompressed newline-delimited file is read in parallel
// byte ranges cut at newlines; arrays, other layouts and compressed files
// are read as one stream each. Safe for concurrent scans.
type Table struct {
	name    string
	opts    Options
	format  string // "newline_delimited", "array" or "unstructured"
	records bool
	cols    []Column
	convs   []converter
	schema  columnar.Schema
	files   []*file
	// chunkSize is the nominal size of a parallel range.
	chunkSize int64
	mem       []byte // the data of a table opened from bytes
}

// file is one file of the table (storage.TextFile: shared with
// formats/csv).
type file = storage.TextFile

// DefaultChunkSize is the nominal byte size of a parallel range.
const DefaultChunkSize = 8 << 20

// Open infers the columns from the first of paths (unless the options give
// them) and opens every path as one table.
func Open(paths []string, o Options) (*Table, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("json: no files: %w", os.ErrNotExist)
	}
	t := &Table{name: stem(paths[0]), opts: o, chunkSize: DefaultChunkSize}
	for _, p := range paths {
		f, err := storage.OpenTextFile(p, o.Compression, o.Open)
		if err != nil {
			t.Close()
			return nil, fmt.Errorf("json: %w", err)
		}
		t.files = append(t.files, f)
	}
	limit := 8 << 20
	if o.SampleSize < 0 {
		limit = 64 << 20
	}
	sample, eof, err := t.files[0].ReadPrefix(limit)
	if err != nil {
		return nil, fmt.Errorf("json: %s: %w", t.files[0].Path, err)
	}
	return t, t.init(sample, eof)
}

// openBytes opens in-memory JSON as a table (tests, fuzzing).
func openBytes(name string, data []byte, o Options) (*Table, error) {
	t := &Table{name: stem(name), opts: o, chunkSize: DefaultChunkSize, mem: data}
	t.files = []*file{{Path: name, Size: int64(len(data))}}
	return t, t.init(data, true)
}

func stem(p string) string {
	base := filepath.Base(strings.TrimRight(p, `/\`))
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}

// detectFormat tells the layout of a sample: an array if it starts with
// '[', newline-delimited if every line of it holds one whole value, else
// unstructured.
func detectFormat(sample []byte, eof bool) string {
	p := skipSpace(sample, 0)
	if p < len(sample) && sample[p] == '[' {
		return "array"
	}
	lines := bytes.Split(sample, []byte{'\n'})
	if !eof && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	for _, l := range lines {
		q := skipSpace(l, 0)
		if q == len(l) {
			continue
		}
		end, err := valueEnd(l, q)
		if err == errIncomplete && end == len(l) {
			err = nil // a scalar at the end of the line
		}
		if err != nil || skipSpace(l, end) != len(l) {
			return "unstructured"
		}
	}
	return "newline_delimited"
}

func (t *Table) init(sample []byte, eof bool) error {
	o := &t.opts
	sample = bytes.TrimPrefix(sample, []byte("\xef\xbb\xbf"))
	switch strings.ToLower(o.Format) {
	case "", "auto":
		t.format = detectFormat(sample, eof)
	case "newline_delimited", "nd", "ndjson", "jsonl":
		t.format = "newline_delimited"
	case "array":
		t.format = "array"
	case "unstructured":
		t.format = "unstructured"
	default:
		return fmt.Errorf("json: %w: format %q (auto, newline_delimited, array, unstructured)", ErrOption, o.Format)
	}
	switch strings.ToLower(o.Records) {
	case "", "auto", "true", "false":
	default:
		return fmt.Errorf("json: %w: records %q (auto, true, false)", ErrOption, o.Records)
	}
	if len(o.Columns) > 0 {
		t.cols = append([]Column(nil), o.Columns...)
		t.records = strings.ToLower(o.Records) != "false"
	} else {
		n := o.SampleSize
		if n == 0 {
			n = defaultSample
		}
		var in inferrer
		var err error
		if o.DateFormat != "" {
			if in.formats.date, err = strftime.Parse(o.DateFormat); err != nil {
				return fmt.Errorf("json: %w: dateformat: %w", ErrOption, err)
			}
		}
		if o.TimestampFormat != "" {
			if in.formats.ts, err = strftime.Parse(o.TimestampFormat); err != nil {
				return fmt.Errorf("json: %w: timestampformat: %w", ErrOption, err)
			}
		}
		var p fastjson.Parser
		sp := &splitter{buf: sample, format: t.format, eof: eof}
		for k := 0; n < 0 || k < n; k++ {
			v, _, err := sp.next()
			if err == io.EOF || err == errIncomplete && !eof {
				break
			}
			if err != nil {
				if o.IgnoreErrors {
					continue
				}
				return fmt.Errorf("json: %s: %w", t.files[0].Path, err)
			}
			pv, err := p.ParseBytes(v)
			if err != nil {
				if o.IgnoreErrors {
					continue
				}
				return fmt.Errorf("json: %s: %w: %v", t.files[0].Path, ErrMalformed, err)
			}
			in.add(pv)
		}
		cols, records, err := in.columns(strings.ToLower(o.Records))
		if err != nil {
			return fmt.Errorf("json: %s: %w", t.files[0].Path, err)
		}
		if len(cols) == 0 {
			cols = []Column{{Name: "json", Type: columnar.TVarchar, JSON: true}}
			records = false
		}
		t.cols, t.records = cols, records
	}
	for _, c := range t.cols {
		cv := converter{col: c, cast: o.Cast}
		var err error
		if o.DateFormat != "" {
			if cv.date, err = strftime.Parse(o.DateFormat); err != nil {
				return fmt.Errorf("json: %w: dateformat: %w", ErrOption, err)
			}
		}
		if o.TimestampFormat != "" {
			if cv.ts, err = strftime.Parse(o.TimestampFormat); err != nil {
				return fmt.Errorf("json: %w: timestampformat: %w", ErrOption, err)
			}
		}
		t.convs = append(t.convs, cv)
		t.schema = append(t.schema, columnar.Field{Name: c.Name, Type: c.Type, Nullable: true})
	}
	return nil
}

// Name returns the table's default name.
func (t *Table) Name() string { return t.name }

// Schema returns the columns.
func (t *Table) Schema() columnar.Schema { return t.schema }

// Columns returns the columns with their JSON flags.
func (t *Table) Columns() []Column { return t.cols }

// Format returns the layout read: newline_delimited, array or
// unstructured.
func (t *Table) Format() string { return t.format }

// Close closes the open files; safe to call more than once.
func (t *Table) Close() error {
	for _, f := range t.files {
		f.Close()
	}
	return nil
}

func (t *Table) parallel(f *file) bool {
	if t.opts.Parallel != nil && !*t.opts.Parallel {
		return false
	}
	return t.mem == nil && f.Comp == "" && t.format == "newline_delimited"
}

// ScanUnits returns the units of a scan: one per byte range of each
// uncompressed newline-delimited file, one per other file.
func (t *Table) ScanUnits(ctx context.Context, spec index.ScanSpec) ([]func(ctx context.Context) (columnar.Reader, error), error) {
	for _, c := range spec.Cols {
		if c < 0 || c >= len(t.schema) {
			return nil, fmt.Errorf("json: %s: scan of column %d, table has %d", t.name, c, len(t.schema))
		}
	}
	var out []func(ctx context.Context) (columnar.Reader, error)
	for _, f := range t.files {
		f := f
		if !t.parallel(f) {
			out = append(out, func(ctx context.Context) (columnar.Reader, error) { return t.streamReader(f, spec.Cols) })
			continue
		}
		n := max(1, (f.Size+t.chunkSize-1)/t.chunkSize)
		for k := range n {
			out = append(out, func(ctx context.Context) (columnar.Reader, error) {
				buf, off, err := t.lineChunk(f, k)
				if err != nil {
					return nil, err
				}
				sp := &splitter{buf: buf, format: "newline_delimited", eof: true, base: off}
				r := t.newReader(f, spec.Cols, sp, nil)
				r.pooled = buf // strings are copied out of it: released at Close
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

// scanBufs hold the blocks lineChunk searches for line ends in: one per
// range end would be garbage (ReadAt through an interface makes it escape).
var scanBufs = sync.Pool{New: func() any { return new([4 << 10]byte) }}

// lineChunk reads range k of a newline-delimited file: from the first
// line starting at or after k*chunkSize to the first line starting at or
// after (k+1)*chunkSize. Each range finds its own ends, so ranges are
// read independently.
func (t *Table) lineChunk(f *file, k int64) ([]byte, int64, error) {
	h, err := f.Source()
	if err != nil {
		return nil, 0, fmt.Errorf("json: %w", err)
	}
	lineStart := func(target int64) (int64, error) {
		if target <= 0 {
			return 0, nil
		}
		if target >= f.Size {
			return f.Size, nil
		}
		bp := scanBufs.Get().(*[4 << 10]byte)
		defer scanBufs.Put(bp)
		buf := bp[:]
		for off := target - 1; off < f.Size; off += int64(len(buf)) {
			n, err := h.ReadAt(buf, off)
			if n == 0 && err != nil {
				return 0, err
			}
			if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
				return off + int64(i) + 1, nil
			}
			if off-target > int64(t.opts.maxSize()) {
				return 0, &ValueError{File: f.Path, Line: 0, Err: ErrTooLarge, Msg: fmt.Sprintf("a line near byte %d is longer than maximum_object_size (%d)", target, t.opts.maxSize())}
			}
		}
		return f.Size, nil
	}
	start, err := lineStart(k * t.chunkSize)
	if err != nil {
		return nil, 0, err
	}
	end, err := lineStart((k + 1) * t.chunkSize)
	if err != nil {
		return nil, 0, err
	}
	if end <= start {
		return nil, start, nil
	}
	buf := storage.GetBuf(int(end - start))
	if _, err := h.ReadAt(buf, start); err != nil && err != io.EOF {
		storage.PutBuf(buf)
		return nil, 0, fmt.Errorf("json: %s: %w", f.Path, err)
	}
	if start == 0 && bytes.HasPrefix(buf, []byte("\xef\xbb\xbf")) {
		return buf[3:], 3, nil
	}
	return buf, start, nil
}

// Scan reads the units one after the other.
func (t *Table) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	units, err := t.ScanUnits(ctx, spec)
	if err != nil {
		return nil, err
	}
	var s columnar.Schema
	for _, c := range spec.Cols {
		s = append(s, t.schema[c])
	}
	return columnar.Chain(s, units, spec.Limit), nil
}

// IO reports what the table's remote files fetched since they were
// opened (planner.IOReporter); ok is false when every file is local.
func (t *Table) IO() (index.IOStats, bool) {
	st, size, ok := storage.SumRemote(t.files)
	return index.IOStats{Requests: st.Requests, Bytes: st.Bytes, Size: size}, ok
}
