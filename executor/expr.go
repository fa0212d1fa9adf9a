package executor

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
)

// Expr is a compiled scalar expression. Eval computes the value of every live
// row of b (rows in b.Sel, or all of [0, b.Len)); slots of other rows in the
// result are garbage. The result belongs to the Expr (or is a column of b)
// and is valid until the next Eval; it may be Const.
type Expr interface {
	Eval(b *columnar.Batch) (*columnar.Vector, error)
	Type() columnar.Type
}

// ColumnExpr returns the input column at position idx.
func ColumnExpr(idx int, t columnar.Type) Expr { return &colExpr{idx: idx, t: t} }

type colExpr struct {
	idx int
	t   columnar.Type
}

func (e *colExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) { return b.Cols[e.idx], nil }
func (e *colExpr) Type() columnar.Type                              { return e.t }

// ColumnIndex reports the input position e reads when e is a plain column.
func ColumnIndex(e Expr) (int, bool) {
	if c, ok := e.(*colExpr); ok {
		return c.idx, true
	}
	return 0, false
}

// ConstExpr returns a constant.
func ConstExpr(v columnar.Value) Expr { return &constExpr{v: columnar.ConstVector(v), val: v} }

type constExpr struct {
	v   *columnar.Vector
	val columnar.Value
}

func (e *constExpr) Eval(*columnar.Batch) (*columnar.Vector, error) { return e.v, nil }
func (e *constExpr) Type() columnar.Type                            { return e.val.Type }

// ConstValue reports the value of a constant expression.
func ConstValue(e Expr) (columnar.Value, bool) {
	if c, ok := e.(*constExpr); ok {
		return c.val, true
	}
	return columnar.Value{}, false
}

// kernel computes out from already-evaluated args for the live rows.
type kernel func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error

// callExpr evaluates its arguments, then a kernel chosen at build time.
type callExpr struct {
	name string
	args []Expr
	t    columnar.Type
	k    kernel
	// strict: a NULL in any argument gives NULL, handled before the kernel
	// runs so kernels only see validity already computed in out.Valid.
	strict bool
	// volatile: a new value for every row (random), so never evaluated
	// once for constant arguments.
	volatile bool
	vals     []*columnar.Vector
	out      columnar.Vector
}

func (e *callExpr) Type() columnar.Type { return e.t }

func (e *callExpr) Eval(b *columnar.Batch) (*columnar.Vector, error) {
	allConst := !e.volatile
	for i, a := range e.args {
		v, err := a.Eval(b)
		if err != nil {
			return nil, err
		}
		e.vals[i] = v
		if !v.Const {
			allConst = false
		}
	}
	out := &e.out
	n := b.Len
	if allConst {
		// Evaluate once on a one-row batch and mark the result constant.
		one := constBatch
		out.Reset(1)
		if e.strict && anyConstNull(e.vals) {
			out.Valid = columnar.Bitmap{0}
			out.Const = true
			return out, nil
		}
		if err := e.k(e.vals, one, out); err != nil {
			return nil, err
		}
		out.Const = true
		return out, nil
	}
	out.Reset(n)
	if e.strict {
		out.Valid = mergeValidity(out.Valid, e.vals, n)
	}
	if err := e.k(e.vals, b, out); err != nil {
		return nil, err
	}
	return out, nil
}

// constBatch is the one-row batch constant arguments are evaluated over.
var constBatch = &columnar.Batch{Len: 1}

func anyConstNull(vals []*columnar.Vector) bool {
	for _, v := range vals {
		if v.IsNull(0) {
			return true
		}
	}
	return false
}

// mergeValidity returns the AND of the arguments' validity for n rows, or nil
// if no argument has NULLs. dst's storage is reused.
func mergeValidity(dst columnar.Bitmap, vals []*columnar.Vector, n int) columnar.Bitmap {
	var out columnar.Bitmap
	for _, v := range vals {
		if v.Const {
			if v.IsNull(0) {
				out = dst.Resize(n)
				for i := range out {
					out[i] = 0
				}
				return out
			}
			continue
		}
		if v.Valid == nil {
			continue
		}
		if out == nil {
			out = dst.Resize(n)
			copy(out, v.Valid)
			continue
		}
		for i := range out {
			out[i] &= v.Valid[i]
		}
	}
	return out
}

// errorf builds an execution error.
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
