package executor

import "github.com/b2sql/b2sql/columnar"

// wideArithKernel is + - * giving a 128-bit type t: the lane shortcut
// where the shape allows, the exact row path (wideArith) for the rows it
// declines and for every row of another shape.
func wideArithKernel(op arithOp, l, r, t columnar.Type) kernel {
	exact := wideArith(op)
	sh, ok := newWideShape(op, l, r, t)
	if !ok {
		return rowKernel(exact, t, true)
	}
	var ar arena
	var xs, ys []columnar.Int128
	var miss []int
	vals := make([]columnar.Value, 2)
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x, y := args[0], args[1]
		if x.Dict != nil || y.Dict != nil {
			return rowKernel(exact, t, true)(args, b, out)
		}
		ar.reset()
		xs, ys = lanes128(xs, x, b.Len), lanes128(ys, y, b.Len)
		miss = sh.applyRows(xs, ys, b, out.Valid, ar.alloc(16*b.Len), out.Bytes, miss[:0])
		for _, i := range miss {
			vals[0], vals[1] = x.Value(i), y.Value(i)
			v, err := exact(vals, t)
			if err != nil {
				return err
			}
			out.SetValue(i, b.Len, v)
		}
		return nil
	}
}
