package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
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
// DISTINCT does (NULLs equal). UNION ALL concatenates; UNION passes each
// distinct row once; INTERSECT [ALL] and EXCEPT [ALL] count the right
// input's rows first, then stream the left: ALL keeps min(m, n) resp.
// max(m-n, 0) copies of a row, without ALL a row at most once. Output
// batches are the inputs' batches with a selection (no copy).
type SetOp struct {
	Left, Right Operator
	Kind        SetOpKind
	All         bool

	// keys numbers the rows' values: UNION's rows seen so far; for
	// INTERSECT and EXCEPT the right input's rows (ids [0, nright)), which
	// EXCEPT extends with the left rows not among them.
	keys      hashtab.Map
	nright    int
	counts    []int64 // ALL: per right id, the copies not yet matched
	emitted   []bool  // INTERSECT: per right id, already output
	rightDone bool    // UNION: left exhausted, reading right
	gids      []int32
	sel       []int
	out       columnar.Batch
}

func (s *SetOp) Types() []columnar.Type { return s.Left.Types() }
func (s *SetOp) Children() []Operator   { return []Operator{s.Left, s.Right} }
func (s *SetOp) String() string {
	if s.All {
		return setOpNames[s.Kind] + " All"
	}
	return setOpNames[s.Kind]
}

func (s *SetOp) Close() error {
	err := s.Left.Close()
	if e := s.Right.Close(); err == nil {
		err = e
	}
	return err
}

func (s *SetOp) Open(ctx context.Context) error {
	s.keys, s.counts, s.emitted, s.rightDone = hashtab.New(s.Left.Types()), nil, nil, false
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
		s.keys.Assign(b, b.Cols, s.gids)
		if s.All {
			s.counts = growZero(s.counts, s.keys.Len())
			forEach(b, func(i int) { s.counts[s.gids[i]]++ })
		}
	}
	s.nright = s.keys.Len()
	if s.Kind == SetIntersect && !s.All {
		s.emitted = make([]bool, s.nright)
	}
	return nil
}

func (s *SetOp) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		in := s.Left
		if s.rightDone {
			in = s.Right
		}
		b, err := in.Next(ctx)
		if err == io.EOF && s.Kind == SetUnion && !s.rightDone {
			s.rightDone = true
			continue
		}
		if err != nil {
			return nil, err
		}
		if s.Kind == SetUnion && s.All {
			return b, nil
		}
		sel := s.keep(b)
		if len(sel) == 0 {
			continue
		}
		s.out = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: sel}
		return &s.out, nil
	}
}

// keep returns the live rows of a left (or, for UNION, right) batch that
// the operation outputs.
func (s *SetOp) keep(b *columnar.Batch) []int {
	s.gids = growIDs(s.gids, b.Len)
	gids := s.gids
	if s.Kind == SetUnion || s.Kind == SetExcept && !s.All {
		// A row's first occurrence: for EXCEPT, among the rows not in the
		// right input (whose keys have ids from nright on).
		return s.keys.Assign(b, b.Cols, gids)
	}
	s.keys.Find(b, b.Cols, gids)
	s.sel = s.sel[:0]
	forEach(b, func(i int) {
		g := gids[i]
		switch {
		case s.Kind == SetExcept: // ALL
			if g >= 0 && s.counts[g] > 0 {
				s.counts[g]--
				return
			}
		case g < 0:
			return
		case s.All: // INTERSECT ALL
			if s.counts[g] == 0 {
				return
			}
			s.counts[g]--
		default: // INTERSECT
			if s.emitted[g] {
				return
			}
			s.emitted[g] = true
		}
		s.sel = append(s.sel, i)
	})
	return s.sel
}
