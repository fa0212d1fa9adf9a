package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
	"github.com/b2sql/b2sql/executor/memory"
)

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

const (
	SetUnion SetOpKind = iota
	SetIntersect
	SetExcept
)

var setOpNames = [...]string{"Union", "Intersect", "Except"}

// SetOp combines two inputs of identical column types, comparing rows as
// DISTINCT does (NULLs equal). UNION ALL concatenates; UNION is a Distinct
// over that concatenation; INTERSECT [ALL] and EXCEPT [ALL] count the right
// input's rows first, then stream the left: ALL keeps min(m, n) resp.
// max(m-n, 0) copies of a row, without ALL a row at most once. Output
// batches are the inputs' batches with a selection (no copy).
//
// The key table is reserved from the query's memory manager; when it is
// refused, INTERSECT and EXCEPT spill by partitions (setop_spill.go), and
// UNION spills as Distinct does.
type SetOp struct {
	Left, Right Operator
	Kind        SetOpKind
	All         bool

	mem   *memory.Manager
	res   *memory.Reservation
	level int       // 0, or the spill depth of a partition's SetOp
	union *Distinct // UNION: the Distinct over UNION ALL

	// keys numbers the rows' values: for INTERSECT and EXCEPT the right
	// input's rows (ids [0, nright)), which EXCEPT extends with the left
	// rows not among them.
	keys      hashtab.Map
	held      int64 // bytes reserved for keys, counts and emitted
	nright    int
	counts    []int64 // ALL: per right id, the copies not yet matched
	emitted   []bool  // INTERSECT: per right id, already output
	rightDone bool    // UNION ALL: left exhausted, reading right
	rightRead bool    // INTERSECT, EXCEPT: the right input is counted
	gids      []int32
	sel       []int
	out       columnar.Batch
	spill     *setOpSpill

	parts respill // the spilled partition pairs, replayed (respill.go)
}

func (s *SetOp) Types() []columnar.Type      { return s.Left.Types() }
func (s *SetOp) Children() []Operator        { return []Operator{s.Left, s.Right} }
func (s *SetOp) SetMemory(m *memory.Manager) { s.mem = m }
func (s *SetOp) String() string {
	if s.All {
		return setOpNames[s.Kind] + " All"
	}
	return setOpNames[s.Kind]
}

// MemoryUse adds the partitions' figures to the table's.
func (s *SetOp) MemoryUse() (int64, int64) {
	if s.union != nil {
		return s.union.MemoryUse()
	}
	return s.parts.figures(s.res.Peak(), s.res.SpilledBytes())
}

func (s *SetOp) Close() error {
	s.dropSpill()
	s.keys, s.counts, s.emitted = nil, nil, nil
	s.res.Free()
	s.held = 0
	if s.union != nil {
		return s.union.Close() // closes Left and Right
	}
	err := s.Left.Close()
	if e := s.Right.Close(); err == nil {
		err = e
	}
	return err
}

func (s *SetOp) Open(ctx context.Context) error {
	if s.Kind == SetUnion && !s.All {
		if s.union == nil {
			s.union = &Distinct{Input: &SetOp{Left: s.Left, Right: s.Right, Kind: SetUnion, All: true}, mem: s.mem, level: s.level}
		}
		return s.union.Open(ctx)
	}
	s.dropSpill()
	s.parts.restart(0, nil)
	s.keys, s.counts, s.emitted, s.rightDone, s.rightRead = nil, nil, nil, false, false
	if s.Kind != SetUnion {
		s.keys = hashtab.New(s.Left.Types())
	}
	if s.res == nil && s.Kind != SetUnion {
		s.res = s.mem.Reserve(setOpNames[s.Kind], memory.Spillable)
	}
	s.res.Free()
	s.held = 0
	if err := s.Left.Open(ctx); err != nil {
		return err
	}
	if err := s.Right.Open(ctx); err != nil {
		return err
	}
	if s.Kind == SetUnion {
		return nil
	}
	for {
		b, err := s.Right.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		s.gids = growIDs(s.gids, b.Len)
		if s.spill == nil && s.held > 0 {
			// Reserved before the table grows (the first batch always goes in:
			// progress): refused, the batch spills.
			if err := s.account(s.keys.Growth(b.Live())); err != nil {
				return err
			}
		}
		if s.spill != nil {
			if err := s.spillRight(ctx, b); err != nil {
				return err
			}
			continue
		}
		s.keys.Assign(b, b.Cols, s.gids)
		if s.All {
			s.counts = growZero(s.counts, s.keys.Len())
			b.ForEach(func(i int) { s.counts[s.gids[i]]++ })
		}
		if err := s.account(0); err != nil {
			return err
		}
	}
	s.nright, s.rightRead = s.keys.Len(), true
	if s.Kind == SetIntersect && !s.All {
		// The marks are needed whatever the limit: the left side is
		// partitioned against the keys, not the marks.
		s.emitted = make([]bool, s.nright)
		s.res.Force(int64(s.nright))
		s.held += int64(s.nright)
	}
	if s.spill != nil {
		return s.spill.finishRight(ctx)
	}
	return nil
}

func (s *SetOp) Next(ctx context.Context) (*columnar.Batch, error) {
	if s.union != nil {
		return s.union.Next(ctx)
	}
	for {
		if sp := s.spill; sp != nil && sp.left != nil && sp.leftDone {
			return s.nextSpilled(ctx)
		}
		in := s.Left
		if s.rightDone {
			in = s.Right
		}
		b, err := in.Next(ctx)
		if err == io.EOF && s.Kind == SetUnion && !s.rightDone {
			s.rightDone = true
			continue
		}
		if err == io.EOF && s.spill != nil && s.spill.left != nil {
			if err := s.spill.finishLeft(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if s.Kind == SetUnion {
			return b, nil
		}
		sel, err := s.keep(ctx, b)
		if err != nil {
			return nil, err
		}
		if len(sel) == 0 {
			continue
		}
		s.out = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: sel}
		return &s.out, nil
	}
}

// keep returns the live rows of a left batch that the operation outputs.
func (s *SetOp) keep(ctx context.Context, b *columnar.Batch) ([]int, error) {
	s.gids = growIDs(s.gids, b.Len)
	gids := s.gids
	if s.spill != nil {
		return s.keepSpilling(ctx, b)
	}
	if s.Kind == SetExcept && !s.All {
		// A row's first occurrence among the rows not in the right input
		// (whose keys have ids from nright on).
		if s.held > 0 {
			if err := s.account(s.keys.Growth(b.Live())); err != nil {
				return nil, err
			}
			if s.spill != nil {
				return s.keepSpilling(ctx, b)
			}
		}
		fresh := s.keys.Assign(b, b.Cols, gids)
		return fresh, s.account(0)
	}
	s.keys.Find(b, b.Cols, gids)
	s.sel = s.sel[:0]
	b.ForEach(func(i int) {
		if s.found(gids[i]) {
			s.sel = append(s.sel, i)
		}
	})

	return s.sel, nil
}

// found decides a left row whose key has id g (-1: not in the right input)
// for INTERSECT [ALL] and EXCEPT ALL: true when it is output.
func (s *SetOp) found(g int32) bool {
	switch {
	case s.Kind == SetExcept: // ALL
		if g >= 0 && s.counts[g] > 0 {
			s.counts[g]--
			return false
		}
		return true
	case g < 0:
		return false
	case s.All: // INTERSECT ALL
		if s.counts[g] == 0 {
			return false
		}
		s.counts[g]--
	default: // INTERSECT
		if s.emitted[g] {
			return false
		}
		s.emitted[g] = true
	}
	return true
}

// account reserves what the key table, counts and marks hold now and
// ahead bytes more (what the table's next Assign may allocate); when
// refused, the operation starts spilling (setop_spill.go).
func (s *SetOp) account(ahead int64) error {
	size := s.keys.Bytes() + 8*int64(cap(s.counts)) + int64(len(s.emitted))
	if spill, err := reserveTo(s.res, s.mem, &s.held, size, ahead); !spill {
		return err
	}
	s.startSpill()
	return nil
}
