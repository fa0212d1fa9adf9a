package spill

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/b2sql/b2sql/columnar"
)

// Writer writes batches to a new spill file.
type Writer struct {
	dir     *Dir
	path    string
	max     int64 // max_temp_directory_size (<= 0: none)
	f       io.WriteCloser
	buf     *bufio.Writer
	count   countingWriter
	ipc     *ipc.Writer
	types   []columnar.Type
	schema  *arrow.Schema
	conv    converter
	rows    int64
	done    bool
	written int64   // bytes accounted in dir.used
	starts  []int64 // with Index: where each batch's message starts
}

// Index makes the writer note where each batch starts, so that the
// finished file can be read from any batch (File.OpenRange). Call it
// before the first Write.
func (w *Writer) Index() { w.starts = []int64{} }

// Create starts a spill file for batches of the given column types; maxDir
// is max_temp_directory_size (<= 0: no limit). Close (or Finish) must
// follow, whatever happens.
func (d *Dir) Create(types []columnar.Type, maxDir int64) (*Writer, error) {
	path, err := d.newPath()
	if err != nil {
		return nil, err
	}
	f, err := d.create(path)
	if err != nil {
		d.removed(0)
		return nil, &Error{Dir: d.temp, Op: "create a spill file", Err: err}
	}
	w := &Writer{dir: d, path: path, max: maxDir, f: f, types: types, schema: schemaOf(types)}
	w.count.w = f
	w.buf = bufio.NewWriterSize(&w.count, 256<<10)
	w.count.onWrite = w.account
	w.ipc = ipc.NewWriter(w.buf, ipc.WithSchema(w.schema), ipc.WithLZ4())
	return w, nil
}

// account adds n written bytes to the directory's total, failing once the
// total would pass max_temp_directory_size.
func (w *Writer) account(n int) error {
	u := w.dir.used.Add(int64(n))
	w.written += int64(n)
	if w.max > 0 && u > w.max {
		return fmt.Errorf("%w (%d bytes)", ErrTempFull, w.max)
	}
	return nil
}

// Write appends the live rows of b (whose columns have the writer's types).
func (w *Writer) Write(ctx context.Context, b *columnar.Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if b.Live() == 0 {
		return nil
	}
	if w.starts != nil {
		// The first batch's start is found when read: the schema's
		// message comes first (OpenRange).
		w.starts = append(w.starts, w.written+int64(w.buf.Buffered()))
	}
	rec := w.conv.record(w.schema, w.types, b)
	err := w.ipc.Write(rec)
	rec.Release()
	if err != nil {
		return w.fail("write a spill file", err)
	}
	w.rows += int64(b.Live())
	return nil
}

func (w *Writer) fail(op string, err error) error {
	var se *Error
	if errors.As(err, &se) {
		return err
	}
	return &Error{Dir: w.dir.temp, Op: op, Err: err}
}

// Finish completes the file and returns it for reading; the writer is
// closed either way (on error the file is removed).
func (w *Writer) Finish() (*File, error) {
	err := w.ipc.Close()
	if err == nil {
		err = w.buf.Flush()
	}
	if e := w.f.Close(); err == nil {
		err = e
	}
	w.done = true
	if err != nil {
		w.remove()
		return nil, w.fail("write a spill file", err)
	}
	return &File{dir: w.dir, path: w.path, types: w.types, Rows: w.rows, Bytes: w.written, starts: w.starts}, nil
}

// Close abandons an unfinished file and removes it; after Finish it does
// nothing.
func (w *Writer) Close() {
	if w.done {
		return
	}
	w.done = true
	w.ipc.Close()
	w.f.Close()
	w.remove()
}

func (w *Writer) remove() {
	os.Remove(w.path)
	w.dir.removed(w.written)
}

// File is a finished spill file.
type File struct {
	dir   *Dir
	path  string
	types []columnar.Type
	Rows  int64 // rows written
	Bytes int64 // compressed size on disk
	gone  bool
	// starts are where the batches start, with Writer.Index (nil
	// without); starts[0] is 0, the schema's start.
	starts []int64
}

// Batches is the number of batches of a file written with Index.
func (f *File) Batches() int { return len(f.starts) }

// Remove deletes the file (once; later calls do nothing).
func (f *File) Remove() {
	if f == nil || f.gone {
		return
	}
	f.gone = true
	os.Remove(f.path)
	f.dir.removed(f.Bytes)
}

// Open returns a reader of the file's batches, in the order written.
func (f *File) Open() (*Reader, error) {
	fh, err := os.Open(f.path)
	if err != nil {
		return nil, &Error{Dir: f.dir.temp, Op: "read a spill file", Err: err}
	}
	r, err := ipc.NewReader(bufio.NewReaderSize(fh, 256<<10))
	if err != nil {
		fh.Close()
		return nil, &Error{Dir: f.dir.temp, Op: "read a spill file", Err: err}
	}
	return &Reader{f: f, fh: fh, ipc: r, out: &columnar.Batch{Cols: make([]*columnar.Vector, len(f.types))}}, nil
}

// OpenRange returns a reader of batches [from, to) of a file written with
// Index, reading only the schema and those batches' bytes.
func (f *File) OpenRange(from, to int) (*Reader, error) {
	if from < 0 || to > len(f.starts) || from > to {
		return nil, &Error{Dir: f.dir.temp, Op: "read a spill file", Err: fmt.Errorf("batches %d..%d of %d", from, to, len(f.starts))}
	}
	fh, err := os.Open(f.path)
	if err != nil {
		return nil, &Error{Dir: f.dir.temp, Op: "read a spill file", Err: err}
	}
	fail := func(err error) (*Reader, error) {
		fh.Close()
		return nil, &Error{Dir: f.dir.temp, Op: "read a spill file", Err: err}
	}
	// The schema's message: a continuation marker, the length of its
	// metadata, the metadata (it has no body).
	var head [8]byte
	if _, err := fh.ReadAt(head[:], 0); err != nil {
		return fail(err)
	}
	schemaEnd := 8 + int64(binary.LittleEndian.Uint32(head[4:]))
	start, end := schemaEnd, f.Bytes
	if from > 0 {
		start = f.starts[from]
	}
	if to < len(f.starts) {
		end = f.starts[to]
	}
	if from == to {
		end = start
	}
	src := io.MultiReader(io.NewSectionReader(fh, 0, schemaEnd), io.NewSectionReader(fh, start, end-start))
	r, err := ipc.NewReader(bufio.NewReaderSize(src, 64<<10))
	if err != nil {
		return fail(err)
	}
	return &Reader{f: f, fh: fh, ipc: r, out: &columnar.Batch{Cols: make([]*columnar.Vector, len(f.types))}}, nil
}

// Reader reads a spill file back. A batch from Next is valid until the
// next call to Next or Close.
type Reader struct {
	f    *File
	fh   *os.File
	ipc  *ipc.Reader
	out  *columnar.Batch
	conv converter
}

// Next returns the next batch, or io.EOF after the last.
func (r *Reader) Next(ctx context.Context) (*columnar.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !r.ipc.Next() {
		if err := r.ipc.Err(); err != nil {
			return nil, &Error{Dir: r.f.dir.temp, Op: "read a spill file", Err: err}
		}
		return nil, io.EOF
	}
	r.conv.batch(r.ipc.RecordBatch(), r.f.types, r.out)
	return r.out, nil
}

// Close releases the reader (the file stays until Remove).
func (r *Reader) Close() {
	if r.ipc != nil {
		r.ipc.Release()
		r.ipc = nil
	}
	r.fh.Close()
}

// countingWriter passes writes on, reporting their sizes first.
type countingWriter struct {
	w       io.Writer
	onWrite func(int) error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if err := c.onWrite(len(p)); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
