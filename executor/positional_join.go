package executor

import (
	"context"
	"io"

	"github.com/b2sql/b2sql/columnar"
)

// PositionalJoin is DuckDB's POSITIONAL JOIN: the n-th row of the left
// input beside the n-th row of the right one, for as many rows as the
// longer input has; the shorter one's columns are NULL past its end. It
// holds at most one batch of each side. The planner reads both inputs on
// one thread, in order: the join is only as meaningful as that order.
type PositionalJoin struct {
	Left, Right Operator

	sides [2]posSide
	out   *columnar.Batch
	rows  []int32
}

// posSide is one input: its current batch and the next live row to use.
type posSide struct {
	op   Operator
	b    *columnar.Batch
	k    int // next live row of b
	done bool
}

// fill makes s hold a live row unless its input ended.
func (s *posSide) fill(ctx context.Context) error {
	for !s.done && (s.b == nil || s.k >= s.b.Live()) {
		b, err := s.op.Next(ctx)
		if err == io.EOF {
			s.done, s.b = true, nil
			return nil
		}
		if err != nil {
			return err
		}
		s.b, s.k = b, 0
	}
	return nil
}

func (j *PositionalJoin) Types() []columnar.Type {
	return append(append([]columnar.Type(nil), j.Left.Types()...), j.Right.Types()...)
}
func (j *PositionalJoin) Children() []Operator { return []Operator{j.Left, j.Right} }
func (j *PositionalJoin) String() string       { return "PositionalJoin" }

func (j *PositionalJoin) Open(ctx context.Context) error {
	if err := j.Left.Open(ctx); err != nil {
		return err
	}
	if err := j.Right.Open(ctx); err != nil {
		return err
	}
	j.sides = [2]posSide{{op: j.Left}, {op: j.Right}}
	j.out = columnar.NewBatch(j.Types(), columnar.MaxBatch)
	return nil
}

func (j *PositionalJoin) Next(ctx context.Context) (*columnar.Batch, error) {
	for i := range j.sides {
		if err := j.sides[i].fill(ctx); err != nil {
			return nil, err
		}
	}
	l, r := &j.sides[0], &j.sides[1]
	if l.done && r.done {
		return nil, io.EOF
	}
	// As many rows as both current batches have left (one side may be
	// over: then as many as the other has).
	n := columnar.MaxBatch
	for _, s := range []*posSide{l, r} {
		if !s.done {
			n = min(n, s.b.Live()-s.k)
		}
	}
	at := 0
	for i, s := range []*posSide{l, r} {
		types := j.Left.Types()
		if i == 1 {
			types = j.Right.Types()
		}
		if s.done {
			for c := range types {
				v := j.out.Cols[at+c]
				v.Reset(n)
				for k := range n {
					v.SetNull(k, n)
				}
			}
		} else {
			j.rows = j.rows[:0]
			for k := range n {
				j.rows = append(j.rows, int32(s.b.Row(s.k+k)))
			}
			for c, v := range s.b.Cols {
				gatherInto(j.out.Cols[at+c], v, j.rows)
			}
			s.k += n
		}
		at += len(types)
	}
	j.out.Len, j.out.Sel = n, nil
	return j.out, nil
}

func (j *PositionalJoin) Close() error {
	err := j.Left.Close()
	if rerr := j.Right.Close(); err == nil {
		err = rerr
	}
	return err
}
