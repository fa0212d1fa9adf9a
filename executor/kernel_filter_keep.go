package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// filter_keep(x, cond) is x where cond is true, else NULL. The binder
// lowers an aggregate's FILTER (WHERE cond) to it (sql/bind_window.go
// filteredArgs): unlike CASE WHEN cond THEN x END it evaluates x on every
// row, so an error in the argument is reported whatever the filter says,
// as DuckDB computes aggregate arguments before filtering
// (count(DISTINCT v::INTEGER) FILTER (WHERE keep) fails on 'bad' in a
// row that keep leaves out). NULL rows of either argument are NULL
// (strict call).
func init() {
	o := sameAs(over(columnar.TNull, byType(filterKeepKernel), param{"value", function.Any}, param{"condition", function.Any}), 1)
	function.Register(internal(scalar("conditional", "filter_keep", "value where condition is true, else NULL; value is evaluated on every row", nil, o)))
}

func filterKeepKernel(columnar.Type) kernel {
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x, cond := args[0], args[1]
		n := b.Len
		b.ForEach(func(i int) {
			if out.Valid != nil && !out.Valid.Get(i) {
				return
			}
			out.CopyRow(i, x, idx(x, i), n)
			if !cond.Bools[idx(cond, i)] {
				out.SetNull(i, n)
			}
		})

		return nil
	}
}
