package executor

import "github.com/b2sql/b2sql/columnar"

// tryExpr is try(x): x's value, NULL for a row where computing x fails,
// as DuckDB's try. x runs over the whole batch first; only when that
// fails does it run again one live row at a time, so a batch without a
// failing row costs what x costs. (An expression reports only errors of
// its values: cancellation and memory are the operators'.)
type tryExpr struct {
	x   Expr
	t   columnar.Type
	out columnar.Vector
	one columnar.Batch // a view of the batch with one live row
}

func (e *tryExpr) Type() columnar.Type { return e.t }

func (e *tryExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	v, err := e.x.Eval(b)
	if err == nil {
		return v, nil
	}
	n := b.Len
	out := &e.out
	out.Type = e.t
	out.Reset(n)
	out.Valid = make(columnar.Bitmap, (n+63)/64) // every row NULL until it computes
	e.one = columnar.Batch{Cols: b.Cols, Len: n, Sel: e.one.Sel[:0]}
	e.one.Sel = append(e.one.Sel, 0)
	for k := range b.Live() {
		i := b.Row(k)
		e.one.Sel[0] = i
		v, err := e.x.Eval(&e.one)
		if err != nil {
			continue
		}
		out.CopyRow(i, v, idx(v, i), n)
	}
	return out, nil
}
