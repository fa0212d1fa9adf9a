package csv

import (
	"cmp"
	"slices"

	"bytes"
	"context"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
)

// reader turns whole records into batches of the scanned columns. It reads
// one buffer of records (a chunk), and, for a stream, asks more for the
// next buffer. Strings point into the buffer (or the lexer's arena for
// unescaped quoted fields), which stays unchanged until the next call to
// Next.
type reader struct {
	t    *Table
	f    *file
	cols []int // scanned table columns
	// slot[i] is the output position of CSV field i, or -1.
	slot    []int
	ncsv    int // CSV columns
	schema  columnar.Schema
	buf     []byte
	pos     int
	base    int64 // offset in the (decompressed) file of buf[0]
	line    int64 // line of the record at pos
	validU8 bool  // buf is valid UTF-8 as a whole
	more    func() ([]byte, error)
	lx      *lexer
	rec     []span
	fields  [][]span // fields[j][r]: output column j of row r
	lines   []int64
	spans   []span // each row's record in buf, for store_rejects
	pending []Reject
	bad     []bool
	batch   *columnar.Batch
	closed  bool
	rows    int  // records per batch
	pooled  bool // buf came from bufPool
}

const batchRows = columnar.MaxBatch

func (t *Table) newReader(f *file, cols []int, buf []byte, line int64, more func() ([]byte, error)) *reader {
	r := &reader{t: t, f: f, cols: cols, ncsv: len(t.sniffed.Columns), buf: buf, line: line, more: more, lx: newLexer(t.sniffed.Dialect)}
	r.slot = make([]int, r.ncsv)
	for i := range r.slot {
		r.slot[i] = -1
	}
	types := make([]columnar.Type, len(cols))
	for j, c := range cols {
		if c < r.ncsv {
			r.slot[c] = j
		}
		types[j] = t.schema[c].Type
		r.schema = append(r.schema, t.schema[c])
	}
	// A chunk holds at most one record per byte (and one more): a small
	// chunk gets small batches, so that the memory of a scan is bounded by
	// its input, not by batchRows per chunk.
	r.rows = batchRows
	if more == nil {
		r.rows = min(batchRows, len(buf)+1)
	}
	r.fields = make([][]span, len(cols))
	for j := range r.fields {
		r.fields[j] = make([]span, r.rows)
	}
	r.lines = make([]int64, r.rows)
	r.spans = make([]span, r.rows)
	r.bad = make([]bool, r.rows)
	r.batch = columnar.NewBatch(types, r.rows)
	r.validU8 = utf8.Valid(buf)
	return r
}

// streamReader reads a compressed file (or one read without ranges) as a
// single unit: buffers of whole records from a stream.
func (t *Table) streamReader(f *file, cols []int) (columnar.Reader, error) {
	var src io.Reader
	var closer io.Closer
	if t.mem != nil {
		src = bytes.NewReader(t.mem)
	} else {
		s, err := f.Stream()
		if err != nil {
			return nil, fmt.Errorf("csv: %s: %w", f.Path, err)
		}
		src, closer = s, s
	}
	st := &stream{r: src, d: t.sniffed.Dialect, maxLine: t.opts.maxLine(), path: f.Path, line: 1}
	head, err := st.next()
	if err != nil {
		if closer != nil {
			closer.Close()
		}
		return nil, err
	}
	off, line, _ := t.dataStart(head) // head is whole records: the stream checked its quotes
	rd := t.newReader(f, cols, head[off:], line, st.next)
	rd.base = off
	return &streamCloser{rd, closer}, nil
}

type streamCloser struct {
	*reader
	c io.Closer
}

func (s *streamCloser) Close() error {
	s.reader.Close()
	if s.c != nil {
		err := s.c.Close()
		s.c = nil
		return err
	}
	return nil
}

// stream cuts a byte stream into buffers that end on record boundaries.
type stream struct {
	r       io.Reader
	d       Dialect
	carry   []byte
	eof     bool
	maxLine int
	path    string
	line    int64 // the line the next buffer starts on (1-based)
}

const streamBlock = 4 << 20

// next returns the next buffer of whole records; io.EOF at the end.
func (s *stream) next() ([]byte, error) {
	if s.eof && len(s.carry) == 0 {
		return nil, io.EOF
	}
	buf := make([]byte, len(s.carry), max(streamBlock, 2*len(s.carry)))
	copy(buf, s.carry)
	s.carry = nil
	for {
		for !s.eof && len(buf) < cap(buf) {
			n, err := s.r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				s.eof = true
			} else if err != nil {
				return nil, fmt.Errorf("csv: %s: %w", s.path, err)
			}
		}
		if s.eof {
			_, recs, _, unterminated := s.d.boundary(buf, len(buf), true)
			if unterminated {
				return nil, &RecordError{File: s.path, Line: s.line + recs, Err: ErrMalformed, Msg: "unterminated quoted field at the end of the file"}
			}
			return buf, nil
		}
		// Cut at a boundary in the last quarter, or anywhere.
		for _, from := range []int{len(buf) * 3 / 4, 1} {
			if at, recs, ok, _ := s.d.boundary(buf, from, false); ok {
				s.carry = append([]byte(nil), buf[at:]...)
				s.line += recs
				return buf[:at], nil
			}
		}
		if len(buf) > s.maxLine+streamBlock {
			return nil, &RecordError{File: s.path, Line: s.line, Err: ErrLineSize, Msg: fmt.Sprintf("a record is longer than max_line_size (%d bytes)", s.maxLine)}
		}
		grown := make([]byte, len(buf), 2*cap(buf))
		copy(grown, buf)
		buf = grown
	}
}

func (r *reader) Schema() columnar.Schema { return r.schema }

func (r *reader) Close() error {
	if !r.closed && r.pooled {
		putBuf(r.buf)
	}
	r.closed = true
	r.buf = nil
	return nil
}

// Next lexes up to r.rows records and converts the scanned columns.
func (r *reader) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		if r.closed {
			return nil, io.EOF
		}
		n, err := r.lexBatch()
		if err != nil {
			return nil, err
		}
		if n == 0 {
			r.flushRejects()
			if r.more == nil {
				return nil, io.EOF
			}
			buf, err := r.more()
			if err == io.EOF {
				r.more = nil
				return nil, io.EOF
			}
			if err != nil {
				return nil, err
			}
			// A stream's buffers follow each other (stream.next).
			r.base += int64(len(r.buf))
			r.buf, r.pos, r.validU8 = buf, 0, utf8.Valid(buf)
			continue
		}
		b, err := r.convert(n)
		if err != nil {
			return nil, err
		}
		r.flushRejects()
		if b != nil {
			return b, nil
		}
	}
}

// lexBatch lexes up to r.rows records into r.fields.
func (r *reader) lexBatch() (int, error) {
	r.lx.arena = r.lx.arena[:0]
	rows := 0
	o := &r.t.opts
	for rows < r.rows && r.pos < len(r.buf) {
		start := r.pos
		next, rec, comment, lerr := r.lx.record(r.buf, r.pos, r.rec[:0])
		r.rec = rec
		line := r.line
		r.line++
		r.pos = next
		if lerr != nil {
			msg := lerr.err.Error()
			if o.IgnoreErrors {
				r.reject(line, lerr.col+1, r.colName(lerr.col), "UNQUOTED VALUE", r.buf[start:min(next, len(r.buf))], msg, start, -1)
				// Resynchronize at the next line.
				if i := bytes.IndexByte(r.buf[start:], r.lx.nl); i >= 0 {
					r.pos = start + i + 1
				}
				continue
			}
			return 0, &RecordError{File: r.f.Path, Line: line, Column: lerr.col + 1, Name: r.colName(lerr.col), Err: ErrMalformed, Msg: msg}
		}
		if comment {
			continue
		}
		if size := next - start; size > o.maxLine() {
			msg := fmt.Sprintf("the record is %d bytes long, above max_line_size (%d)", size, o.maxLine())
			if o.IgnoreErrors {
				r.reject(line, 0, "", "LINE SIZE OVER MAXIMUM", r.buf[start:next], msg, start, -1)
				continue
			}
			return 0, &RecordError{File: r.f.Path, Line: line, Err: ErrLineSize, Msg: msg}
		}
		if len(rec) == 1 && rec[0].s == rec[0].e && r.ncsv > 1 {
			continue // a blank line
		}
		if len(rec) != r.ncsv {
			if len(rec) < r.ncsv && o.NullPadding {
				for len(rec) < r.ncsv {
					rec = append(rec, span{-1, -1})
				}
			} else {
				kind, msg := "MISSING COLUMNS", fmt.Sprintf("expected %d fields, found %d", r.ncsv, len(rec))
				if len(rec) > r.ncsv {
					kind = "TOO MANY COLUMNS"
				}
				if o.IgnoreErrors {
					// DuckDB's columns: the fields found, and the first
					// missing column's name.
					// DuckDB's byte_position: the first extra field's
					// offset, or the record's end.
					at := start + len(bytes.TrimRight(r.buf[start:next], "\r\n")) + 1
					if len(rec) > r.ncsv {
						at = r.lx.fieldStart(r.buf, start, r.ncsv)
					}
					r.reject(line, len(rec), r.colName(len(rec)), kind, r.buf[start:next], msg, start, at)
					continue
				}
				return 0, &RecordError{File: r.f.Path, Line: line, Err: ErrMalformed, Msg: msg}
			}
		}
		for i, f := range rec {
			if j := r.slot[i]; j >= 0 {
				r.fields[j][rows] = f
			}
		}
		r.lines[rows] = line
		r.spans[rows] = span{int32(start), int32(next)}
		rows++
	}
	return rows, nil
}

func (r *reader) colName(i int) string {
	if i >= 0 && i < len(r.t.sniffed.Columns) {
		return r.t.sniffed.Columns[i].Name
	}
	return ""
}

// reject keeps a dropped record for store_rejects: start is its offset in
// buf, at the error's (-1: unknown), as DuckDB counts it.
func (r *reader) reject(line int64, col int, name, kind string, text []byte, msg string, start, at int) {
	if !r.t.opts.StoreRejects {
		return
	}
	text = bytes.TrimRight(text, "\r\n")
	rj := Reject{File: r.f.Path, Line: line, Column: col, Name: name, ErrorType: kind, CSVLine: string(text), Message: msg,
		LineByte: r.base + int64(start) + 1}
	if at >= 0 {
		rj.Byte = r.base + int64(at)
	}
	r.pending = append(r.pending, rj)
}

// flushRejects hands a batch's rejects to the table in line order: lexing
// finds malformed lines before conversion finds bad values in earlier
// ones, and rejects_limit keeps the first lines.
func (r *reader) flushRejects() {
	if len(r.pending) == 0 {
		return
	}
	slices.SortStableFunc(r.pending, func(a, b Reject) int { return cmp.Compare(a.Line, b.Line) })
	for _, rj := range r.pending {
		r.t.addReject(rj)
	}
	r.pending = r.pending[:0]
}

// convert fills the batch from n lexed rows; nil if every row was dropped.
func (r *reader) convert(n int) (*columnar.Batch, error) {
	b := r.batch
	b.Len, b.Sel = n, nil
	anyBad := false
	o := &r.t.opts
	for j, c := range r.cols {
		v := b.Cols[j]
		v.Reset(n)
		cv := &r.t.convs[c]
		fs := r.fields[j][:n]
		text := cv.t.ID == columnar.Varchar
		for i, sp := range fs {
			if sp.s == -1 && sp.e == -1 { // null_padding
				v.SetNull(i, n)
				continue
			}
			f := r.lx.bytesOf(r.buf, sp)
			if o.isNull(f) {
				v.SetNull(i, n)
				continue
			}
			if text {
				if !r.validU8 && !utf8.Valid(f) {
					if err := r.fail(i, c, f, "invalid UTF-8"); err != nil {
						return nil, err
					}
					anyBad = true
					continue
				}
				v.Bytes[i] = f
				continue
			}
			if !cv.convertInto(v, i, f) {
				if err := r.fail(i, c, f, fmt.Sprintf("could not convert string %q to '%s'", f, cv.t)); err != nil {
					return nil, err
				}
				anyBad = true
			}
		}
	}
	if !anyBad {
		return b, nil
	}
	sel := make([]int, 0, n)
	for i := range n {
		if !r.bad[i] {
			sel = append(sel, i)
		}
		r.bad[i] = false
	}
	if len(sel) == 0 {
		return nil, nil
	}
	b.Sel = sel
	return b, nil
}

// fail handles a field that does not convert: an error, or with
// ignore_errors a dropped row.
func (r *reader) fail(row, col int, f []byte, msg string) error {
	o := &r.t.opts
	if !o.IgnoreErrors {
		return &RecordError{File: r.f.Path, Line: r.lines[row], Column: col + 1, Name: r.colName(col), Err: ErrConvert, Msg: msg}
	}
	if !r.bad[row] {
		sp := r.spans[row]
		at := r.lx.fieldStart(r.buf, int(sp.s), col)
		if at >= 0 {
			at++ // DuckDB's byte_position of a field is 1-based
		}
		r.reject(r.lines[row], col+1, r.colName(col), "CAST", r.buf[sp.s:sp.e], msg, int(sp.s), at)
	}
	r.bad[row] = true
	return nil
}
