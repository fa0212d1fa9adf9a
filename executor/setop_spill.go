package executor

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/spill"
)

// Spilling INTERSECT and EXCEPT. When the memory manager refuses the key
// table more room, the table stops taking keys. While the right input is
// counted, its rows with a key in the table are counted there as before
// and the others are written to spillParts partition files by a hash of
// the key; the table is then complete for its keys. The left input is
// then decided in memory for the keys in the table, and its other rows go
// to left partitions by the same hash (EXCEPT without ALL also stops there
// when the table, which it extends with the left keys it outputs, is
// refused while reading the left input: then no right row is on disk).
// At the end the table is freed and each partition pair is combined by a
// SetOp of its own, which spills again if still too big. A key is thus
// decided either wholly in memory or wholly in one partition.

type setOpSpill struct {
	right, left           *partWriter   // right is nil when spilling began on the left
	rightFiles, leftFiles []*spill.File // nil entries: the partition got no row
	leftDone              bool
	missing               []int
	dec                   []columnar.Vector
	cols                  []*columnar.Vector
}

// startSpill switches the operation to partitioning the keys not in the
// table.
func (s *SetOp) startSpill() {
	types := s.Left.Types()
	h := newPartHash(s.level) // one hash for both sides: equal keys meet
	sp := &setOpSpill{left: newPartWriter(s.mem, s.res, types, h),
		dec: make([]columnar.Vector, len(types)), cols: make([]*columnar.Vector, len(types))}
	if !s.rightRead {
		sp.right = newPartWriter(s.mem, s.res, types, h)
	}
	s.spill = sp
}

// missingRows lists the live rows of b whose key is not in the table
// (gids from Find), calling onFound for the others.
func (s *SetOp) missingRows(b *columnar.Batch, onFound func(i int, g int32)) []int {
	sp := s.spill
	sp.missing = sp.missing[:0]
	b.ForEach(func(i int) {
		if g := s.gids[i]; g < 0 {
			sp.missing = append(sp.missing, i)
		} else {
			onFound(i, g)
		}
	})

	return sp.missing
}

// write deals the rows rows of b to w's partitions.
func (sp *setOpSpill) write(ctx context.Context, w *partWriter, b *columnar.Batch, rows []int) error {
	if len(rows) == 0 {
		return nil
	}
	view := columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: rows}
	for k, v := range b.Cols[:len(sp.cols)] {
		sp.cols[k] = decodeLive(v, &view, &sp.dec[k])
	}
	return w.add(ctx, &view, sp.cols, sp.cols)
}

// spillRight counts a right batch's rows whose key is in the table and
// partitions the others.
func (s *SetOp) spillRight(ctx context.Context, b *columnar.Batch) error {
	s.keys.Find(b, b.Cols, s.gids)
	missing := s.missingRows(b, func(_ int, g int32) {
		if s.All {
			s.counts[g]++
		}
	})
	return s.spill.write(ctx, s.spill.right, b, missing)
}

func (sp *setOpSpill) finishRight(ctx context.Context) error {
	files, err := sp.right.finish(ctx)
	sp.rightFiles = files
	return err
}

// keepSpilling decides a left batch's rows whose key is in the table and
// partitions the others.
func (s *SetOp) keepSpilling(ctx context.Context, b *columnar.Batch) ([]int, error) {
	s.keys.Find(b, b.Cols, s.gids)
	s.sel = s.sel[:0]
	missing := s.missingRows(b, func(i int, g int32) {
		// EXCEPT: a key in the table is in the right input or was output.
		if !(s.Kind == SetExcept && !s.All) && s.found(g) {
			s.sel = append(s.sel, i)
		}
	})
	return s.sel, s.spill.write(ctx, s.spill.left, b, missing)
}

func (sp *setOpSpill) finishLeft(ctx context.Context) error {
	files, err := sp.left.finish(ctx)
	sp.leftFiles, sp.leftDone = files, true
	return err
}

// nextSpilled returns the rows of the partition pairs' operations, one
// after another, once the table is freed.
func (s *SetOp) nextSpilled(ctx context.Context) (*columnar.Batch, error) {
	sp := s.spill
	if s.keys != nil {
		s.keys, s.counts, s.emitted = nil, nil, nil
		s.res.Free()
		s.held = 0
		s.parts.restart(len(sp.leftFiles), s.partitionOp)
	}
	return s.parts.next(ctx)
}

// partitionOp is the operation of partition pair p, nil when its left
// side is empty (INTERSECT and EXCEPT output left rows only). It takes
// over the pair's files: its scans remove them.
func (s *SetOp) partitionOp(p int) memoryOp {
	sp, types := s.spill, s.Left.Types()
	lf := sp.leftFiles[p]
	var rf *spill.File
	if sp.rightFiles != nil {
		rf = sp.rightFiles[p]
		sp.rightFiles[p] = nil
	}
	sp.leftFiles[p] = nil
	if lf == nil {
		rf.Remove()
		return nil
	}
	var right Operator = &emptyOp{types: types}
	if rf != nil {
		right = &spillScan{f: rf, types: types}
	}
	return &SetOp{Left: &spillScan{f: lf, types: types}, Right: right, Kind: s.Kind, All: s.All, mem: s.mem, level: s.level + 1}
}

// dropSpill removes the files written or being written.
func (s *SetOp) dropSpill() {
	sp := s.spill
	if sp == nil {
		return
	}
	s.parts.end()
	s.spill = nil
	if sp.right != nil {
		sp.right.close()
	}
	sp.left.close()
	removeFiles(sp.rightFiles)
	removeFiles(sp.leftFiles)
}
