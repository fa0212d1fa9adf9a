package executor

import (
	"context"
	"errors"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// spool holds rows appended in order for operators that replay them
// (materialized CTEs, the rows and work table of a recursive CTE): in a
// chunked store reserved from the query's memory manager, or, once the
// manager refuses more, in one spill file that takes the rows held and
// every later one. Readers replay the rows in order, each with its own
// cursor or file reader. A spool is written by one goroutine; readers may
// run at once after finish.
type spool struct {
	types []columnar.Type
	mem   *memory.Manager
	res   *memory.Reservation // shared with the operator's other spools
	held  int64               // bytes of res this spool holds
	store *chunkedStore
	n     int           // rows appended
	w     *spill.Writer // while spilling: the file being written
	file  *spill.File   // spilled and finished: every row, in order
}

func newSpool(types []columnar.Type, mem *memory.Manager, res *memory.Reservation) *spool {
	return &spool{types: types, mem: mem, res: res, store: newChunkedStore(types, 0)}
}

// add appends the live rows of b's first len(types) columns.
func (s *spool) add(ctx context.Context, b *columnar.Batch) error {
	view := columnar.Batch{Cols: b.Cols[:len(s.types)], Len: b.Len, Sel: b.Sel}
	s.n += view.Live()
	if s.w == nil {
		need := storeBytes(&view, view.Cols)
		err := s.res.Grow(need)
		if err == nil {
			s.held += need
			s.store.appendRows(&view, view.Cols)
			return nil
		}
		var oom *memory.OutOfMemory
		// Nothing held yet (a first batch over the limit) still spills.
		if !errors.Is(err, memory.ErrSpill) && !(errors.As(err, &oom) && s.mem.TempDir() != "") {
			return err
		}
		if err := s.spillStore(ctx); err != nil {
			return err
		}
	}
	return s.w.Write(ctx, &view)
}

// spillStore starts the spill file with the rows held and frees them.
func (s *spool) spillStore(ctx context.Context) error {
	w, err := s.mem.SpillDir().Create(s.types, s.mem.MaxTemp())
	if err != nil {
		return err
	}
	s.w = w
	if err := s.store.eachBatch(s.types, func(b *columnar.Batch) error { return w.Write(ctx, b) }); err != nil {
		return err
	}
	s.store = nil
	s.res.Shrink(s.held)
	s.held = 0
	return nil
}

// spillNow moves the rows held to the spill file (the later ones follow
// them there), to free memory for another use.
func (s *spool) spillNow(ctx context.Context) error {
	if s.w != nil || s.file != nil {
		return nil
	}
	return s.spillStore(ctx)
}

// finish completes the spill file, if the spool spilled.
func (s *spool) finish() error {
	if s.w == nil {
		return nil
	}
	f, err := s.w.Finish()
	s.w = nil
	s.file = f
	if f != nil {
		s.res.Spilled(f.Bytes)
	}
	return err
}

// drop frees the rows and removes the file.
func (s *spool) drop() {
	if s == nil {
		return
	}
	s.store = nil
	if s.w != nil {
		s.w.Close()
		s.w = nil
	}
	s.file.Remove()
	s.file = nil
	s.res.Shrink(s.held)
	s.held = 0
}

// spoolReader replays a finished spool.
type spoolReader struct {
	s   *spool
	pos int
	out *columnar.Batch
	r   *spill.Reader
}

// reader returns a reader of the spool from its first row.
func (s *spool) reader() (*spoolReader, error) {
	rd := &spoolReader{s: s}
	if s.file != nil {
		r, err := s.file.Open()
		if err != nil {
			return nil, err
		}
		rd.r = r
	}
	return rd, nil
}

// next returns the next rows (up to MaxBatch; byte payloads shared with
// the store or the file reader's batch), valid until the next call, or
// io.EOF.
func (rd *spoolReader) next(ctx context.Context) (*columnar.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if rd.r != nil {
		return rd.r.Next(ctx)
	}
	st := rd.s.store
	if st == nil || rd.pos >= st.n {
		return nil, io.EOF
	}
	from, to := rd.pos, min(rd.pos+columnar.MaxBatch, st.n)
	rd.pos = to
	if rd.out == nil {
		rd.out = columnar.NewBatch(rd.s.types, columnar.MaxBatch)
	}
	for c := range st.cols {
		st.copyRange(rd.out.Cols[c], c, from, to)
	}
	rd.out.Len, rd.out.Sel = to-from, nil
	return rd.out, nil
}

func (rd *spoolReader) close() {
	if rd != nil && rd.r != nil {
		rd.r.Close()
		rd.r = nil
	}
}
