package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
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

	counts    map[string]int
	seen      map[string]struct{}
	rightDone bool // UNION: left exhausted, reading right
	key       []byte
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
	s.seen, s.counts, s.rightDone = map[string]struct{}{}, nil, false
	if err := s.Left.Open(ctx); err != nil {
		return err
	}
	if err := s.Right.Open(ctx); err != nil {
		return err
	}
	if s.Kind == SetUnion {
		return nil
	}
	s.counts = map[string]int{}
	for {
		b, err := s.Right.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		forEach(b, func(i int) {
			s.key = encodeKey(s.key[:0], b.Cols, i)
			s.counts[string(s.key)]++
		})
	}
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
		s.sel = s.sel[:0]
		forEach(b, func(i int) {
			s.key = encodeKey(s.key[:0], b.Cols, i)
			if s.keep(string(s.key)) {
				s.sel = append(s.sel, i)
			}
		})
		if len(s.sel) == 0 {
			continue
		}
		s.out = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: s.sel}
		return &s.out, nil
	}
}

// keep decides one left (or, for UNION, right) row.
func (s *SetOp) keep(k string) bool {
	if !s.All {
		if _, dup := s.seen[k]; dup {
			return false
		}
	}
	var ok bool
	switch s.Kind {
	case SetUnion:
		ok = true
	case SetIntersect:
		ok = s.counts[k] > 0
		if ok && s.All {
			s.counts[k]--
		}
	case SetExcept:
		if s.All {
			if s.counts[k] > 0 {
				s.counts[k]--
				return false
			}
			return true
		}
		ok = s.counts[k] == 0
	}
	if ok && !s.All {
		s.seen[k] = struct{}{}
	}
	return ok
}
