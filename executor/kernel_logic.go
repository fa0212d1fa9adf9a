package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
)

// logicExpr is AND / OR over any number of BOOLEAN args with SQL's
// three-valued logic: FALSE dominates AND, TRUE dominates OR, otherwise any
// NULL makes the result NULL.
type logicExpr struct {
	and  bool
	args []Expr
	out  columnar.Vector
}

func (e *logicExpr) Type() columnar.Type { return columnar.TBool }

func (e *logicExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	n := b.Len
	out := &e.out
	out.Type = columnar.TBool
	out.Reset(n)
	res := out.Bools[:n]
	// known[i]: the result is decided (dominant value seen); null[i]: a NULL seen.
	dominant := !e.and
	var nulls columnar.Bitmap
	b.ForEach(func(i int) { res[i] = !dominant })
	for _, a := range e.args {
		v, err := a.Eval(b)
		if err != nil {
			return nil, err
		}
		b.ForEach(func(i int) {
			j := idx(v, i)
			if v.IsNull(j) {
				if res[i] != dominant {
					if nulls == nil {
						nulls = make(columnar.Bitmap, (n+63)/64)
					}
					nulls.Set(i)
				}
				return
			}
			if v.Bools[j] == dominant {
				res[i] = dominant
			}
		})

	}
	if nulls != nil {
		valid := columnar.NewBitmap(n)
		b.ForEach(func(i int) {
			if nulls.Get(i) && res[i] != dominant {
				valid.Clear(i)
			}
		})

		out.Valid = valid
	}
	return out, nil
}

func notKernel(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	x := args[0]
	b.ForEach(func(i int) { out.Bools[i] = !x.Bools[idx(x, i)] })
	return nil
}

// isNullExpr is IS [NOT] NULL: never NULL itself.
type isNullExpr struct {
	arg Expr
	not bool
	out columnar.Vector
}

func (e *isNullExpr) Type() columnar.Type { return columnar.TBool }

func (e *isNullExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	v, err := e.arg.Eval(b)
	if err != nil {
		return nil, err
	}
	out := &e.out
	out.Type = columnar.TBool
	if v.Const {
		out.Reset(1)
		out.Bools[0] = v.IsNull(0) != e.not
		out.Const = true
		return out, nil
	}
	out.Reset(b.Len)
	b.ForEach(func(i int) { out.Bools[i] = v.IsNull(i) != e.not })
	return out, nil
}

// coalesceExpr returns the first non-NULL argument.
type coalesceExpr struct {
	args []Expr
	t    columnar.Type
	out  columnar.Vector
}

func (e *coalesceExpr) Type() columnar.Type { return e.t }

func (e *coalesceExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	n := b.Len
	out := &e.out
	out.Type = e.t
	out.Reset(n)
	pending := columnar.NewBitmap(n) // rows still NULL
	out.Valid = make(columnar.Bitmap, (n+63)/64)
	for _, a := range e.args {
		v, err := a.Eval(b)
		if err != nil {
			return nil, err
		}
		left := false
		b.ForEach(func(i int) {
			if !pending.Get(i) {
				return
			}
			j := idx(v, i)
			if v.IsNull(j) {
				left = true
				return
			}
			out.CopyRow(i, v, j, n)
			pending.Clear(i)
		})

		if !left {
			break
		}
	}
	return out, nil
}

// nullifKernel returns NULL when a = b, else a.
func nullifKernel(t columnar.Type) kernel {
	eq := cmpKernel(opEq, t)
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		a, c := args[0], args[1]
		n := b.Len
		tmp := columnar.NewVector(columnar.TBool, n)
		if !c.IsNull(0) || !c.Const {
			if err := eq(args, b, tmp); err != nil {
				return err
			}
		}
		return forRows(b, func(i int) error {
			out.CopyRow(i, a, idx(a, i), n)
			if !a.IsNull(idx(a, i)) && !c.IsNull(idx(c, i)) && tmp.Bools[i] {
				out.SetNull(i, n)
			}
			return nil
		})
	}
}

// inExpr is x [NOT] IN (list) with SQL NULL semantics: no match and a NULL
// in the list gives NULL. A constant list's values are numbered once in a
// hashtab.Map, which x is looked up in (a dictionary-coded x once per
// code); NaN matches NaN and -0 matches 0, as = does.
type inExpr struct {
	arg    Expr
	list   []Expr
	not    bool
	t      columnar.Type
	consts bool
	set    hashtab.Map // the constant list's non-NULL values; nil when none
	hasNul bool
	gids   []int32
	out    columnar.Vector
	eq     kernel
	tmp    columnar.Vector
	plain  columnar.Vector // coded x against a non-constant list: decoded
}

func newInExpr(arg Expr, list []Expr, not bool) *inExpr {
	e := &inExpr{arg: arg, list: list, not: not, t: arg.Type(), consts: true}
	for _, l := range list {
		if _, ok := ConstValue(l); !ok {
			e.consts = false
		}
	}
	if e.consts {
		vals := columnar.NewVector(e.t, len(list))
		n := 0
		for _, l := range list {
			v, _ := ConstValue(l)
			if v.Null {
				e.hasNul = true
				continue
			}
			vals.SetValue(n, len(list), v)
			n++
		}
		if n > 0 && e.t.Phys() != columnar.PhysNone {
			e.set = hashtab.New([]columnar.Type{e.t})
			e.gids = make([]int32, n)
			e.set.Assign(&columnar.Batch{Len: n}, []*columnar.Vector{vals}, e.gids)
		}
	}
	e.eq = cmpKernel(opEq, e.t)
	return e
}

func (e *inExpr) Type() columnar.Type { return columnar.TBool }

func (e *inExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	x, err := e.arg.Eval(b)
	if err != nil {
		return nil, err
	}
	if x.Dict != nil && !e.consts {
		x = decodeLive(x, b, &e.plain)
	}
	bb := b
	constOut := x.Const && e.consts
	if constOut {
		bb = constBatch
	}
	n := bb.Len
	out := &e.out
	out.Type = columnar.TBool
	out.Reset(n)
	out.Valid = columnar.NewBitmap(n)
	if e.consts {
		e.gids = growIDs(e.gids, n)
		gids := e.gids
		if e.set != nil {
			e.set.Find(bb, []*columnar.Vector{x}, gids)
		}
		bb.ForEach(func(i int) {
			if x.IsNull(i) {
				out.Valid.Clear(i)
				return
			}
			e.finish(out, i, e.set != nil && gids[i] >= 0, e.hasNul)
		})

	} else {
		hits := make([]bool, n)
		nulls := make([]bool, n)
		e.tmp.Type = columnar.TBool
		for _, l := range e.list {
			lv, err := l.Eval(b)
			if err != nil {
				return nil, err
			}
			e.tmp.Reset(b.Len)
			args := []*columnar.Vector{x, lv}
			if err := e.eq(args, b, &e.tmp); err != nil {
				return nil, err
			}
			bb.ForEach(func(i int) {
				if lv.IsNull(idx(lv, i)) {
					nulls[i] = true
				} else if e.tmp.Bools[i] {
					hits[i] = true
				}
			})

		}
		bb.ForEach(func(i int) {
			if x.IsNull(i) {
				out.Valid.Clear(i)
				return
			}
			e.finish(out, i, hits[i], nulls[i])
		})

	}
	if constOut {
		out.Const = true
	}
	return out, nil
}

func (e *inExpr) finish(out *columnar.Vector, i int, hit, sawNull bool) {
	switch {
	case hit:
		out.Bools[i] = !e.not
	case sawNull:
		out.Valid.Clear(i)
	default:
		out.Bools[i] = e.not
	}
}
