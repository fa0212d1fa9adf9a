package fileset

import (
	"context"
	"io"
	"slices"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/planner"
)

// fileSpec is the scan of file i for spec: the file columns the wanted
// data columns read (each once), the data predicates the file can use,
// and a function building, from the file reader's schema, one expression
// per wanted column (a file column, cast when the types differ; NULL for
// a column the file lacks; the file's constant for filename and
// partitions).
func (t *Table) fileSpec(spec index.ScanSpec, preds []index.Pred, i int, s *slot) (index.ScanSpec, func(columnar.Schema) []executor.Expr, error) {
	b := t.bindingOf(s)
	fs := s.t.Schema()
	fspec := index.ScanSpec{Limit: -1, Threads: 1, NoPrune: spec.NoPrune, Off: spec.Off, Stats: spec.Stats}
	pos := make([]int, len(spec.Cols)) // wanted column → position in fspec.Cols, -1 none
	for k, c := range spec.Cols {
		pos[k] = -1
		if c >= len(t.data) || b.col[c] < 0 {
			continue
		}
		fc := b.col[c]
		j := slices.Index(fspec.Cols, fc)
		if j < 0 {
			j = len(fspec.Cols)
			fspec.Cols = append(fspec.Cols, fc)
			if spec.WantsCodes(k) && fs[fc].Type == t.data[c].Type {
				fspec.DictCols = append(fspec.DictCols, j)
			}
		}
		pos[k] = j
	}
	if fp, ok := s.t.(planner.FilterPusher); ok {
		for _, p := range preds {
			if q, ok := t.remap(p, s); ok && fp.SupportsFilter(q) != index.Unsupported {
				fspec.Filter = append(fspec.Filter, q)
			}
		}
	}
	exprs := func(rs columnar.Schema) []executor.Expr {
		out := make([]executor.Expr, len(spec.Cols))
		for k, c := range spec.Cols {
			want := t.schema[c].Type
			switch {
			case t.isConst(c):
				out[k] = executor.ConstExpr(t.consts[c-len(t.data)][i])
			case pos[k] < 0:
				out[k] = executor.ConstExpr(columnar.NullValue(want))
			default:
				var e executor.Expr = executor.ColumnExpr(pos[k], rs[pos[k]].Type)
				if rs[pos[k]].Type != want {
					e = executor.NewCast(e, want, false)
				}
				out[k] = e
			}
		}
		return out
	}
	return fspec, exprs, nil
}

// reader is one unit of a file, its columns turned into the table's.
type reader struct {
	in     columnar.Reader
	exprs  []executor.Expr
	schema columnar.Schema
	name   string
	out    columnar.Batch
	done   func() // called once, at the unit's end (io.EOF)
}

func (t *Table) newReader(in columnar.Reader, cols []int, exprs []executor.Expr, name string) *reader {
	s := make(columnar.Schema, len(cols))
	for k, c := range cols {
		s[k] = t.schema[c]
	}
	return &reader{in: in, exprs: exprs, schema: s, name: name, out: columnar.Batch{Cols: make([]*columnar.Vector, len(cols))}}
}

func (r *reader) Schema() columnar.Schema { return r.schema }

func (r *reader) Next(ctx context.Context) (*columnar.Batch, error) {
	b, err := r.in.Next(ctx)
	if err != nil {
		if err == io.EOF {
			if r.done != nil {
				r.done()
				r.done = nil
			}
			return nil, err
		}
		return nil, located(r.name, err)
	}
	for k, e := range r.exprs {
		v, err := e.Eval(b)
		if err != nil {
			return nil, located(r.name, err)
		}
		r.out.Cols[k] = v
	}
	r.out.Len, r.out.Sel = b.Len, b.Sel
	return &r.out, nil
}

func (r *reader) Close() error { return r.in.Close() }
