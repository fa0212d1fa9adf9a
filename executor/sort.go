package executor

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
	"github.com/b2sql/b2sql/index"
)

// Sort buffers its whole input, then emits it ordered by Keys (stable: ties
// keep input order). Key values are evaluated per batch and stored beside
// the rows, so no expression runs during the sort itself.
type Sort struct {
	Input Operator
	Keys  []SortKey

	store *rowStore
	nCols int
	perm  []int32
	pos   int
	out   *columnar.Batch

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

func (s *Sort) Open(ctx context.Context) error {
	if err := s.Input.Open(ctx); err != nil {
		return err
	}
	types := s.Input.Types()
	s.nCols = len(types)
	all := append([]columnar.Type{}, types...)
	for _, k := range s.Keys {
		all = append(all, k.Expr.Type())
	}
	s.store = newRowStore(all)
	s.removeRuns()
	s.res = s.mem.Reserve("sort", memory.Spillable)
	s.perm, s.pos = nil, 0
	cols := make([]*columnar.Vector, len(all))
	for {
		b, err := s.Input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		copy(cols, b.Cols[:s.nCols])
		for i, k := range s.Keys {
			v, err := k.Expr.Eval(b)
			if err != nil {
				return err
			}
			cols[s.nCols+i] = v
		}
		if s.res != nil {
			if err := s.reserve(ctx, storeBytes(b, cols)); err != nil {
				return err
			}
		}
		s.store.appendRows(b, cols)
	}
	s.out = columnar.NewBatch(types, columnar.MaxBatch)
	if len(s.runs) > 0 {
		return s.startMerge(ctx) // sort_spill.go
	}
	perm, err := sortPerm(ctx, s.store.cols[s.nCols:], s.Keys, s.store.n)
	s.perm = perm
	return err
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

func (s *Sort) gather(from, to int) {
	full := &columnar.Batch{Cols: s.out.Cols}
	st := &rowStore{cols: s.store.cols[:s.nCols]}
	st.gather(full, s.perm, from, to)
	s.out.Len, s.out.Sel = full.Len, nil
}

func (s *Sort) Close() error {
	s.store, s.perm = nil, nil
	s.removeRuns()
	s.res.Free()
	return s.Input.Close()
}

// TopK keeps the Count+Offset best rows by Keys with a bounded buffer: rows
// are appended, and when the buffer reaches twice the bound it is sorted and
// cut back, so memory stays O(k) and work O(n log k) amortized.
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
	sorted bool // the store holds exactly the best rows, in order
	sel    []int
	narrow columnar.Batch
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
	t.nCols = len(types)
	all := append([]columnar.Type{}, types...)
	for _, k := range t.Keys {
		all = append(all, k.Expr.Type())
	}
	bound := int(t.Count + t.Offset)
	t.store = newRowStore(all)
	// Top-k holds at most about 2k rows and cannot spill: a k too big for
	// the limit is an out-of-memory error naming it.
	t.res = t.mem.Reserve("top-k", false)
	cols := make([]*columnar.Vector, len(all))
	for bound > 0 {
		b, err := t.Input.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		copy(cols, b.Cols[:t.nCols])
		keyVecs := cols[t.nCols:]
		for i, k := range t.Keys {
			v, err := k.Expr.Eval(b)
			if err != nil {
				return err
			}
			if v.Const {
				v = expandConst(v, b.Len)
			}
			keyVecs[i] = v
		}
		if t.store.n >= bound {
			// The buffer is full: only rows that beat the current k-th row
			// (strictly, so ties keep the earlier row) can enter it.
			b = t.beating(b, keyVecs, bound)
			if b == nil {
				continue
			}
		}
		if err := t.res.Grow(storeBytes(b, cols)); err != nil {
			return err
		}
		t.store.appendRows(b, cols)
		t.sorted = false
		if t.store.n >= 2*bound+columnar.MaxBatch || (t.Bound != nil && t.store.n >= bound) {
			// With a Bound, cut back now rather than on the next batch (the
			// same work, a batch earlier): the scan learns the k-th key
			// before it starts its next unit.
			t.compact(all, bound)
		}
	}
	t.compact(all, bound)
	t.pos = int(min(t.Offset, int64(len(t.perm))))
	t.out = columnar.NewBatch(types, columnar.MaxBatch)
	return nil
}

// compact sorts the buffer and keeps the first bound rows, in a fresh store.
func (t *TopK) compact(types []columnar.Type, bound int) {
	perm := make([]int32, t.store.n)
	for i := range perm {
		perm[i] = int32(i)
	}
	keys := t.store.cols[t.nCols:]
	slices.SortStableFunc(perm, func(a, b int32) int { return compareRows(keys, t.Keys, int(a), int(b)) })
	if len(perm) > bound {
		perm = perm[:bound]
	}
	if t.Bound != nil && bound > 0 && len(perm) == bound {
		t.Bound.Publish(keys[0].Value(int(perm[bound-1])))
	}
	fresh := newRowStore(types)
	tmp := columnar.NewBatch(types, len(perm))
	t.store.gather(tmp, perm, 0, len(perm))
	fresh.appendRows(tmp, tmp.Cols)
	if before := t.store.n; before > 0 {
		// The rows cut go with the old store: return their share.
		held := t.res.Size()
		t.res.Shrink(held - held*int64(fresh.n)/int64(before))
	}
	t.store = fresh
	t.perm = make([]int32, fresh.n)
	for i := range t.perm {
		t.perm[i] = int32(i)
	}
	t.sorted = true
}

func (t *TopK) Types() []columnar.Type { return t.Input.Types() }

func (t *TopK) Close() error {
	t.store = nil
	t.res.Free()
	return t.Input.Close()
}

// beating returns b narrowed to the rows whose keys sort strictly before the
// cutoff row (the bound-th best so far), or nil if none do.
func (t *TopK) beating(b *columnar.Batch, keyVecs []*columnar.Vector, bound int) *columnar.Batch {
	if !t.sorted {
		t.compact(t.store.types, bound)
	}
	cut := bound - 1
	stored := t.store.cols[t.nCols:]
	t.sel = t.sel[:0]
	forEach(b, func(i int) {
		if compareAcross(keyVecs, i, stored, cut, t.Keys) < 0 {
			t.sel = append(t.sel, i)
		}
	})
	if len(t.sel) == 0 {
		return nil
	}
	t.narrow = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: t.sel}
	return &t.narrow
}
