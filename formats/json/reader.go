package json

import (
	"github.com/b2sql/b2sql/storage"

	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/valyala/fastjson"

	"github.com/b2sql/b2sql/columnar"
)

// reader parses values into batches of the scanned columns. Strings are
// copied into the batch's arena (the parser reuses its memory for every
// value), which stays unchanged until the next call to Next.
type reader struct {
	t      *Table
	f      *file
	cols   []int
	slot   map[string]int // key → output position (records)
	names  []string       // output position → key
	schema columnar.Schema
	sp     *splitter
	more   func(*splitter) error // refills sp from a stream; nil: none
	closer io.Closer
	p      fastjson.Parser
	batch  *columnar.Batch
	rowCap int // rows per batch: MaxBatch, or what an in-memory range can hold
	text   []byte
	closed bool
	// pooled is the chunk buffer (storage.GetBuf) sp reads, for Close.
	pooled []byte
	// keys[k] and keySlot[k] remember the k-th key of the last record and
	// its output position (-1: not scanned), so that records with the same
	// keys in the same order find their columns without a map lookup.
	keys    [][]byte
	keySlot []int
	// spans, arena and vp serve the flat-record extractor (extract.go).
	spans []span
	arena fastjson.Arena
	vp    fastjson.Parser
}

func (t *Table) newReader(f *file, cols []int, sp *splitter, more func(*splitter) error) *reader {
	r := &reader{t: t, f: f, cols: cols, sp: sp, more: more, slot: map[string]int{}}
	types := make([]columnar.Type, len(cols))
	for j, c := range cols {
		types[j] = t.schema[c].Type
		r.schema = append(r.schema, t.schema[c])
		r.slot[t.cols[c].key()] = j
		r.names = append(r.names, t.cols[c].Name)
	}
	// A range held whole in memory has at most one value per two bytes
	// (a value and its separator): tiny ranges get tiny batches.
	r.rowCap = columnar.MaxBatch
	if more == nil {
		r.rowCap = min(r.rowCap, len(sp.buf)/2+1)
	}
	r.batch = columnar.NewBatch(types, r.rowCap)
	return r
}

// streamReader reads a file as one stream of values.
func (t *Table) streamReader(f *file, cols []int) (columnar.Reader, error) {
	if t.mem != nil {
		sp := &splitter{buf: bytes.TrimPrefix(t.mem, []byte("\xef\xbb\xbf")), format: t.format, eof: true}
		return t.newReader(f, cols, sp, nil), nil
	}
	s, err := f.Stream()
	if err != nil {
		return nil, fmt.Errorf("json: %s: %w", f.Path, err)
	}
	st := &stream{r: s, max: t.opts.maxSize(), path: f.Path, line: 1}
	sp := &splitter{format: t.format}
	if err := st.refill(sp); err != nil {
		s.Close()
		return nil, err
	}
	sp.buf = bytes.TrimPrefix(sp.buf, []byte("\xef\xbb\xbf"))
	r := t.newReader(f, cols, sp, st.refill)
	r.closer = s
	return r, nil
}

// stream feeds a splitter from a reader: the unread rest of the buffer
// plus the next block.
type stream struct {
	r    io.Reader
	eof  bool
	max  int
	path string
	base int64
	line int64 // the line of the buffer's first byte (1-based)
}

const streamBlock = 4 << 20

func (st *stream) refill(sp *splitter) error {
	done := min(sp.pos, len(sp.buf))
	rest := sp.buf[done:]
	// The unread rest starts the value being read: its line is the
	// buffer's plus the newlines read before it.
	lead := len(rest) - len(bytes.TrimLeft(rest, " \t\r\n,"))
	st.line += int64(bytes.Count(sp.buf[:done+lead], []byte{'\n'}))
	if st.eof {
		return &ValueError{File: st.path, Line: st.line, Err: ErrMalformed, Msg: "the last value is not complete"}
	}
	if len(rest) > st.max {
		return &ValueError{File: st.path, Line: st.line, Err: ErrTooLarge, Msg: fmt.Sprintf("a value at byte %d is larger than maximum_object_size (%d bytes)", sp.base+int64(sp.pos), st.max)}
	}
	buf := make([]byte, len(rest), len(rest)+streamBlock)
	copy(buf, rest)
	st.base += int64(min(sp.pos, len(sp.buf)))
	for len(buf) < cap(buf) {
		n, err := st.r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			st.eof = true
			break
		}
		if err != nil {
			return fmt.Errorf("json: %s: %w", st.path, err)
		}
	}
	sp.buf, sp.pos, sp.eof, sp.base = buf, 0, st.eof, st.base
	return nil
}

func (r *reader) Schema() columnar.Schema { return r.schema }

func (r *reader) Close() error {
	r.closed = true
	if r.pooled != nil {
		r.sp.buf = nil
		storage.PutBuf(r.pooled[:cap(r.pooled)])
		r.pooled = nil
	}
	if r.closer != nil {
		r.closer.Close()
		r.closer = nil
	}
	return nil
}

// lineOf returns the line of byte off of the reader's file, counting
// newlines from the start (only for error messages).
func (r *reader) lineOf(off int64) int64 {
	var data io.Reader
	if r.t.mem != nil {
		data = bytes.NewReader(r.t.mem)
	} else if r.f.Comp == "" && !storage.IsRemote(r.f.Path) {
		h, err := os.Open(r.f.Path)
		if err != nil {
			return 0
		}
		defer h.Close()
		data = h
	} else {
		s, err := r.f.Stream()
		if err != nil {
			return 0
		}
		defer s.Close()
		data = s
	}
	line := int64(1)
	buf := make([]byte, 1<<20)
	for off > 0 {
		n, err := data.Read(buf[:min(int64(len(buf)), off)])
		line += int64(bytes.Count(buf[:n], []byte{'\n'}))
		off -= int64(n)
		if err != nil {
			break
		}
	}
	return line
}

func (r *reader) valueError(off int64, col string, kind error, msg string) error {
	return &ValueError{File: r.f.Path, Line: r.lineOf(off), Column: col, Err: kind, Msg: msg}
}

// Next parses up to a batch of values.
func (r *reader) Next(ctx context.Context) (*columnar.Batch, error) {
	if r.closed {
		return nil, io.EOF
	}
	b := r.batch
	n := r.rowCap
	for _, v := range b.Cols {
		v.Reset(n)
		v.Valid = zeroBitmap(v.Valid, n)
	}
	b.Sel = nil
	r.text = r.text[:0:0] // a new arena: the last batch's strings stay valid for it
	rows := 0
	ign := r.t.opts.IgnoreErrors
	for rows < n {
		val, off, err := r.sp.next()
		if err == errIncomplete && r.more != nil {
			if err := r.more(r.sp); err != nil {
				return nil, err
			}
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if ign {
				r.skipBad()
				continue
			}
			return nil, r.valueError(off, "", ErrMalformed, errors.Unwrap(err).Error()+": "+err.Error())
		}
		if len(val) == 0 {
			continue // a blank line
		}
		if len(r.cols) == 0 {
			// count(*): nothing to extract, so the value is only
			// validated (no parse tree); a record must still be an object.
			err := fastjson.ValidateBytes(val)
			if err == nil && r.t.records && bytes.TrimLeft(val, " \t\r\n")[0] != '{' {
				err = fmt.Errorf("expected an object, found %q", trunc8(val))
			}
			if err != nil {
				if ign {
					continue
				}
				return nil, r.valueError(off, "", ErrMalformed, err.Error())
			}
			rows++
			continue
		}
		if readFlat && r.t.records && r.scanFlat(val) {
			ok, err := r.rowFlat(val, rows, off)
			if err != nil {
				return nil, err
			}
			if ok {
				rows++
			}
			continue
		}
		pv, err := r.p.ParseBytes(val)
		if err != nil {
			if ign {
				continue
			}
			return nil, r.valueError(off, "", ErrMalformed, err.Error())
		}
		ok, err := r.row(pv, rows, off)
		if err != nil {
			return nil, err
		}
		if ok {
			rows++
		}
	}
	if rows == 0 {
		return nil, io.EOF
	}
	for _, v := range b.Cols {
		nullNested(v, rows)
	}
	b.Len = rows
	return b, nil
}

// skipBad moves past a value the splitter refused (ignore_errors): to the
// next line.
func (r *reader) skipBad() {
	sp := r.sp
	i := bytes.IndexByte(sp.buf[min(sp.pos, len(sp.buf)):], '\n')
	if i < 0 {
		sp.pos = len(sp.buf)
		return
	}
	sp.pos += i + 1
}

// row stores value v as row i; false (no error) when ignore_errors drops it.
func (r *reader) row(v *fastjson.Value, i int, off int64) (bool, error) {
	b := r.batch
	ign := r.t.opts.IgnoreErrors
	if !r.t.records {
		for j, c := range r.cols {
			if c >= len(r.t.cols) {
				continue
			}
			if v.Type() == fastjson.TypeNull {
				continue
			}
			if !r.t.convs[c].set(b.Cols[j], i, v, &r.text) {
				if ign {
					continue // DuckDB reads a value that does not convert as NULL
				}
				return false, r.valueError(off, r.names[j], ErrConvert, fmt.Sprintf("could not convert %s to %s", trunc(v), b.Cols[j].Type))
			}
			b.Cols[j].Valid.Set(i)
		}
		return true, nil
	}
	o, err := v.Object()
	if err != nil {
		if ign {
			return false, nil
		}
		return false, r.valueError(off, "", ErrMalformed, fmt.Sprintf("expected an object, found %s", v.Type()))
	}
	var failed error
	k := 0
	o.Visit(func(key []byte, x *fastjson.Value) {
		j := r.keyPos(k, key)
		k++
		if failed != nil || j < 0 || x.Type() == fastjson.TypeNull {
			return
		}
		if !r.t.convs[r.cols[j]].set(b.Cols[j], i, x, &r.text) {
			if ign {
				return // NULL, as DuckDB
			}
			failed = r.valueError(off, r.names[j], ErrConvert, fmt.Sprintf("could not convert %s to %s", trunc(x), b.Cols[j].Type))
			return
		}
		b.Cols[j].Valid.Set(i)
	})
	if failed != nil {
		return false, failed
	}
	return true, nil
}

// keyPos returns the output position of the k-th key of a record (-1: a
// key not scanned), from the last record's k-th key when it is the same.
func (r *reader) keyPos(k int, key []byte) int {
	if k < len(r.keys) && bytes.Equal(r.keys[k], key) {
		return r.keySlot[k]
	}
	j, ok := r.slot[string(key)]
	if !ok {
		j = -1
	}
	for len(r.keys) <= k {
		r.keys, r.keySlot = append(r.keys, nil), append(r.keySlot, -1)
	}
	r.keys[k], r.keySlot[k] = append(r.keys[k][:0], key...), j
	return j
}

// trunc8 is the start of a value's text, for messages.
func trunc8(val []byte) string { return string(val[:min(len(val), 8)]) }

// trunc is a value's JSON text, shortened for messages.
func trunc(v *fastjson.Value) string {
	s := v.String()
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// zeroBitmap returns b resized for n rows with every bit clear.
func zeroBitmap(b columnar.Bitmap, n int) columnar.Bitmap {
	w := (n + 63) / 64
	if cap(b) < w {
		return make(columnar.Bitmap, w)
	}
	b = b[:w]
	clear(b)
	return b
}
