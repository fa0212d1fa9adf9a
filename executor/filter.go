package executor

import (
	"context"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
)

// Filter passes the rows for which Cond is TRUE, by narrowing the selection
// vector; column data is never copied.
type Filter struct {
	Input Operator
	Cond  Expr
	Desc  string // the condition's SQL text, for EXPLAIN

	out columnar.Batch
	sel []int
}

func (f *Filter) Types() []columnar.Type         { return f.Input.Types() }
func (f *Filter) Children() []Operator           { return []Operator{f.Input} }
func (f *Filter) String() string                 { return fmt.Sprintf("Filter %s", f.Desc) }
func (f *Filter) Open(ctx context.Context) error { return f.Input.Open(ctx) }
func (f *Filter) Close() error                   { return f.Input.Close() }

func (f *Filter) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		b, err := f.Input.Next(ctx)
		if err != nil {
			return nil, err
		}
		v, err := f.Cond.Eval(b)
		if err != nil {
			return nil, err
		}
		sel := f.sel[:0]
		if cap(sel) < b.Len {
			sel = make([]int, 0, max(b.Len, columnar.MaxBatch))
		}
		sel = selectTrue(v, b, sel)
		f.sel = sel
		if len(sel) == 0 {
			continue
		}
		f.out = columnar.Batch{Cols: b.Cols, Len: b.Len, Sel: sel}
		if len(sel) == b.Len {
			f.out.Sel = nil
		}
		return &f.out, nil
	}
}

// selectTrue appends the live rows of b where v is TRUE (not NULL) to sel.
func selectTrue(v *columnar.Vector, b *columnar.Batch, sel []int) []int {
	if v.Const {
		if v.IsNull(0) || !v.Bools[0] {
			return sel
		}
		if b.Sel != nil {
			return append(sel, b.Sel...)
		}
		for i := 0; i < b.Len; i++ {
			sel = append(sel, i)
		}
		return sel
	}
	vals := v.Bools
	if v.Valid == nil {
		if b.Sel == nil {
			vals = vals[:b.Len]
			for i, t := range vals {
				if t {
					sel = append(sel, i)
				}
			}
			return sel
		}
		for _, i := range b.Sel {
			if vals[i] {
				sel = append(sel, i)
			}
		}
		return sel
	}
	b.ForEach(func(i int) {
		if vals[i] && v.Valid.Get(i) {
			sel = append(sel, i)
		}
	})

	return sel
}
