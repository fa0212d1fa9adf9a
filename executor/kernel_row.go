package executor

import (
	"github.com/b2sql/b2sql/columnar"
)

// rowFunc computes one row of a function from boxed argument values. It is
// for the long tail of functions (rows_*.go), where clarity beats the
// per-value boxing; hot functions have vector kernels.
type rowFunc func(args []columnar.Value, t columnar.Type) (columnar.Value, error)

// rowKernel runs f over the live rows. With strict calls the NULL rows are
// already marked in out.Valid and skipped.
func rowKernel(f rowFunc, t columnar.Type, strict bool) kernel {
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		vals := make([]columnar.Value, len(args))
		var err error
		b.ForEach(func(i int) {
			if err != nil || strict && out.Valid != nil && !out.Valid.Get(i) {
				return
			}
			for k, a := range args {
				vals[k] = a.Value(i)
			}
			var v columnar.Value
			if v, err = f(vals, t); err == nil {
				out.SetValue(i, b.Len, v)
			}
		})

		return err
	}
}
