package executor

import (
	"context"

	"github.com/b2sql/b2sql/columnar"
)

// Scan adapts a table reader to an Operator. Start runs at Open, so building
// the plan (and EXPLAIN) does no I/O.
type Scan struct {
	Start func(ctx context.Context) (columnar.Reader, error)
	Out   []columnar.Type
	Desc  string
	// Describe, when set, gives the description instead of Desc when it
	// is asked for (describing a remote table's scan plans it, which
	// reads its page index: building does no I/O).
	Describe func() string

	r columnar.Reader
}

func (s *Scan) Types() []columnar.Type { return s.Out }
func (s *Scan) Children() []Operator   { return nil }
func (s *Scan) String() string         { return describe(s.Desc, s.Describe) }

// describe is desc, or what fn says when it is set.
func describe(desc string, fn func() string) string {
	if fn != nil {
		return fn()
	}
	return desc
}

func (s *Scan) Open(ctx context.Context) error {
	r, err := s.Start(ctx)
	if err != nil {
		return err
	}
	s.r = r
	return nil
}

func (s *Scan) Next(ctx context.Context) (*columnar.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for {
		b, err := s.r.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b.Live() > 0 {
			return b, nil
		}
	}
}

func (s *Scan) Close() error {
	if s.r == nil {
		return nil
	}
	r := s.r
	s.r = nil
	return r.Close()
}

// Values emits constant rows (SELECT without FROM).
type Values struct {
	Rows [][]Expr
	Out  []columnar.Type
	Note string // shown by EXPLAIN

	done bool
}

func (v *Values) Types() []columnar.Type { return v.Out }
func (v *Values) Children() []Operator   { return nil }
func (v *Values) String() string {
	s := "Values " + itoa(int64(len(v.Rows))) + " rows"
	if v.Note != "" {
		s += " " + v.Note
	}
	return s
}
func (v *Values) Open(ctx context.Context) error { v.done = false; return nil }
func (v *Values) Close() error                   { return nil }

func (v *Values) Next(ctx context.Context) (*columnar.Batch, error) {
	if v.done || len(v.Rows) == 0 {
		return nil, ioEOF
	}
	v.done = true
	n := len(v.Rows)
	out := columnar.NewBatch(v.Out, n)
	one := &columnar.Batch{Len: 1}
	for r, row := range v.Rows {
		for c, e := range row {
			x, err := e.Eval(one)
			if err != nil {
				return nil, err
			}
			out.Cols[c].CopyRow(r, x, 0, n)
		}
	}
	out.Len = n
	return out, nil
}
