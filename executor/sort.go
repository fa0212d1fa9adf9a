package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
	"github.com/b2sql/b2sql/index"
)

// Sort buffers its whole input in a chunkedStore, then emits it ordered by
// Keys (stable: ties keep input order). A key that is an input column is
// read from that stored column; other keys are evaluated per batch and
// stored beside the rows, so no expression runs during the sort itself.
type Sort struct {
	Input Operator
	Keys  []SortKey

	store   *chunkedStore
	types   []columnar.Type // the stored columns: the input's, then computed keys
	keyCols []int           // the stored column of each key
	nCols   int             // the input's columns, the ones emitted
	perm    []int32
	pos     int
	out     *columnar.Batch
	cols    []*columnar.Vector // scratch: a batch's stored columns

	mem   *memory.Manager     // the query's (SetMemory); nil: no accounting
	res   *memory.Reservation // what the held rows take
	runs  []*spill.File       // sorted runs written out (sort_spill.go)
	merge *runMerge           // the final merge of runs, read by Next
}

func (s *Sort) Types() []columnar.Type { return s.Input.Types() }
func (s *Sort) Children() []Operator   { return []Operator{s.Input} }
func (s *Sort) String() string         { return "Sort " + keysString(s.Keys) }

func keysString(keys []SortKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("#%d", i)
		if k.Desc {
			parts[i] += " DESC"
		}
	}
	return strings.Join(parts, ", ")
}

// layout sets the stored columns of a sort (or top-k) over input types:
// the input's, then each key that is not a plain input column.
func (s *Sort) layout(types []columnar.Type) {
	s.nCols = len(types)
	s.types = append([]columnar.Type{}, types...)
	s.keyCols = make([]int, len(s.Keys))
	for i, k := range s.Keys {
		if c, ok := ColumnIndex(k.Expr); ok && c < len(types) {
			s.keyCols[i] = c
			continue
		}
		s.keyCols[i] = len(s.types)
		s.types = append(s.types, k.Expr.Type())
	}
	s.cols = make([]*columnar.Vector, len(s.types))
}

// storedCols sets s.cols to b's columns and computed keys.
func (s *Sort) storedCols(b *columnar.Batch) error {
	copy(s.cols, b.Cols[:s.nCols])
	for i, k := range s.Keys {
		if c := s.keyCols[i]; c >= s.nCols {
			v, err := k.Expr.Eval(b)
			if err != nil {
				return err
			}
			s.cols[c] = v
		}
	}
	return nil
}

// keyVectors returns the key vectors among the stored columns cols.
func (s *Sort) keyVectors(cols []*columnar.Vector) []*columnar.Vector {
	ks := make([]*columnar.Vector, len(s.keyCols))
	for i, c := range s.keyCols {
		ks[i] = cols[c]
	}
	return ks
}

func (s *Sort) Open(ctx context.Context) error {
	if err := s.Input.Open(ctx); err != nil {
		return err
	}
	types := s.Input.Types()
	s.layout(types)
	s.store = newChunkedStore(s.types, 0)
	s.removeRuns()
	s.res = s.mem.Reserve("sort", memory.Spillable)
	s.perm, s.pos = nil, 0
	for {
		b, err := s.Input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := s.storedCols(b); err != nil {
			return err
		}
		if s.res != nil {
			if err := s.reserve(ctx, sortBytes(b, s.cols)); err != nil {
				return err
			}
		}
		s.store.appendRows(b, s.cols)
	}
	s.out = columnar.NewBatch(types, columnar.MaxBatch)
	if len(s.runs) > 0 {
		return s.startMerge(ctx) // sort_spill.go
	}
	perm, err := sortPerm(ctx, s.store, s.keyCols, s.Keys)
	s.perm = perm
	return err
}

// sortBytes estimates what the live rows of cols take held by a sort: the
// stored rows and their sort entries.
func sortBytes(b *columnar.Batch, cols []*columnar.Vector) int64 {
	return chunkBytes(b, cols) + int64(b.Live())*sortEntryBytes
}

func (s *Sort) Next(ctx context.Context) (*columnar.Batch, error) {
	if s.merge != nil {
		if err := s.merge.next(ctx, s.out, columnar.MaxBatch); err != nil {
			return nil, err
		}
		if s.out.Len == 0 {
			return nil, io.EOF
		}
		return s.out, nil
	}
	if s.pos >= len(s.perm) {
		return nil, io.EOF
	}
	end := min(s.pos+columnar.MaxBatch, len(s.perm))
	s.gather(s.pos, end)
	s.pos = end
	return s.out, ctx.Err()
}

// gather sets s.out to the emitted columns of the stored rows perm[from:to].
func (s *Sort) gather(from, to int) {
	for c := range s.out.Cols {
		s.store.gatherCol(s.out.Cols[c], c, s.perm[from:to])
	}
	s.out.Len, s.out.Sel = to-from, nil
}

func (s *Sort) Close() error {
	s.store, s.perm = nil, nil
	s.removeRuns()
	s.res.Free()
	return s.Input.Close()
}

// TopK keeps the Count+Offset best rows by Keys with a bounded buffer: rows
// are appended, and when the buffer reaches twice the bound it is sorted and
// cut back, so memory stays O(k) and work O(n log k) amortized. Once the
// buffer has held k rows, only rows that beat the k-th best so far (cut)
// enter it. When the memory manager refuses room (a k too large for the
// limit), the buffer is cut back and written out as a sorted run, as Sort
// spills, and the runs are merged at the end for the first k rows.
//
// Bound, when non-nil, receives the key of the k-th best row each time the
// buffer is cut back, so that the scan below can skip units that cannot
// beat it (top-k pruning). The planner sets it only when Keys is a single
// column of the scan, NULLS LAST.
type TopK struct {
	Input         Operator
	Keys          []SortKey
	Count, Offset int64
	Bound         *index.TopKBound

	Sort
	sorted  bool               // the store holds exactly the best rows, in order
	cut     []*columnar.Vector // the keys of the k-th best row so far (one row each); nil: none yet
	emitted int64              // rows read from the merge of spilled runs
	sel     []int
	narrow  columnar.Batch
}

func (t *TopK) String() string {
	return fmt.Sprintf("TopK %s limit=%d offset=%d", keysString(t.Keys), t.Count, t.Offset)
}
func (t *TopK) Children() []Operator { return []Operator{t.Input} }

func (t *TopK) Open(ctx context.Context) error {
	if err := t.Input.Open(ctx); err != nil {
		return err
	}
	t.Sort.Keys = t.Keys
	types := t.Input.Types()
	t.layout(types)
	bound := int(t.Count + t.Offset)
	t.store = newChunkedStore(t.types, 0)
	t.removeRuns()
	t.cut, t.sorted, t.emitted, t.perm = nil, false, 0, nil
	t.res = t.mem.Reserve("top-k", memory.Spillable)
	for bound > 0 {
		b, err := t.Input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := t.storedCols(b); err != nil {
			return err
		}
		if t.store.n >= bound || t.cut != nil {
			// Only rows that beat the current k-th row (strictly, so
			// ties keep the earlier row) can enter the buffer.
			if b, err = t.beating(ctx, b, bound); err != nil {
				return err
			}
			if b == nil {
				continue
			}
		}
		if err := t.reserveTop(ctx, sortBytes(b, t.cols), bound); err != nil {
			return err
		}
		t.store.appendRows(b, t.cols)
		t.sorted = false
		if t.store.n >= 2*bound+columnar.MaxBatch || (t.Bound != nil && t.store.n >= bound) {
			// With a Bound, cut back now rather than on the next batch (the
			// same work, a batch earlier): the scan learns the k-th key
			// before it starts its next unit.
			if err := t.compact(ctx, bound); err != nil {
				return err
			}
		}
	}
	if err := t.compact(ctx, bound); err != nil {
		return err
	}
	t.out = columnar.NewBatch(types, columnar.MaxBatch)
	if len(t.runs) > 0 {
		return t.startMerge(ctx) // sort_spill.go: spills the rest first
	}
	t.pos = int(min(t.Offset, int64(len(t.perm))))
	return nil
}

// reserveTop asks for the room of the next batch; when refused, the
// buffer is cut back to the best rows and written out as a run.
func (t *TopK) reserveTop(ctx context.Context, need int64, bound int) error {
	err := t.res.Grow(need)
	if errors.Is(err, memory.ErrSpill) {
		if err := t.compact(ctx, bound); err != nil {
			return err
		}
		if t.store.n > 0 {
			if err := t.spillRun(ctx); err != nil {
				return err
			}
		}
		err = t.res.Grow(need)
	}
	return t.mustHold(err, need)
}

// compact sorts the buffer and keeps the first bound rows, in a fresh
// store, and takes the bound-th row's keys as the cut.
func (t *TopK) compact(ctx context.Context, bound int) error {
	if t.sorted {
		return nil
	}
	perm, err := sortPerm(ctx, t.store, t.keyCols, t.Keys)
	if err != nil {
		return err
	}
	if len(perm) > bound {
		perm = perm[:bound]
	}
	fresh := newChunkedStore(t.types, len(perm))
	tmp := columnar.NewBatch(t.types, min(len(perm), columnar.MaxBatch))
	for from := 0; from < len(perm); from += columnar.MaxBatch {
		t.store.gather(tmp, perm, from, min(from+columnar.MaxBatch, len(perm)))
		fresh.appendRows(tmp, tmp.Cols)
	}
	if before := t.store.n; before > 0 {
		// The rows cut go with the old store: return their share.
		held := t.res.Size()
		t.res.Shrink(held - held*int64(fresh.n)/int64(before))
	}
	t.store = fresh
	if bound > 0 && fresh.n == bound {
		last := []int32{int32(bound - 1)}
		t.cut = make([]*columnar.Vector, len(t.keyCols))
		for i, c := range t.keyCols {
			t.cut[i] = columnar.NewVector(t.types[c], 1)
			fresh.gatherCol(t.cut[i], c, last)
		}
		if t.Bound != nil {
			t.Bound.Publish(t.cut[0].Value(0))
		}
	}
	t.perm = make([]int32, fresh.n)
	for i := range t.perm {
		t.perm[i] = int32(i)
	}
	t.sorted = true
	return nil
}

func (t *TopK) Types() []columnar.Type { return t.Input.Types() }

// Next emits the rows after Offset, from the buffer or, when it spilled,
// from the merge of its runs, up to Count rows.
func (t *TopK) Next(ctx context.Context) (*columnar.Batch, error) {
	if t.merge == nil {
		return t.Sort.Next(ctx)
	}
	for {
		end := t.Offset + t.Count
		if t.emitted < t.Offset {
			end = t.Offset
		}
		want := min(int64(columnar.MaxBatch), end-t.emitted)
		if want <= 0 {
			return nil, io.EOF
		}
		if err := t.merge.next(ctx, t.out, int(want)); err != nil {
			return nil, err
		}
		if t.out.Len == 0 {
			return nil, io.EOF
		}
		skipped := t.emitted < t.Offset
		t.emitted += int64(t.out.Len)
		if !skipped {
			return t.out, nil
		}
	}
}

func (t *TopK) Close() error {
	t.store, t.cut = nil, nil
	t.removeRuns()
	t.res.Free()
	return t.Input.Close()
}

// beating returns b narrowed to the rows whose keys sort strictly before
// the cut (the bound-th best row so far), or nil if none do. A buffer that
// grew since it was cut back is cut back first, for the tightest cut.
func (t *TopK) beating(ctx context.Context, b *columnar.Batch, bound int) (*columnar.Batch, error) {
	if t.store.n >= bound {
		if err := t.compact(ctx, bound); err != nil {
			return nil, err
		}
	}
	if t.cut == nil {
		return b, nil
	}
	keyVecs := t.keyVectors(t.cols)
	for i, v := range keyVecs {
		if v.Const {
			keyVecs[i] = expandConst(v, b.Len)
		}
	}
	t.sel = selectBeating(b, keyVecs, t.cut, t.Keys, t.sel[:0]) // topk_beat.go
	if len(t.sel) == 0 {
		return nil, nil
	}
	t.narrow = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: t.sel}
	return &t.narrow, nil
}
