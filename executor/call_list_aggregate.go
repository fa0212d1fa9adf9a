package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The list forms of aggregates that run the aggregate's own state over
// each list's elements, as DuckDB's list_aggregate runs the aggregate per
// list: the elements of a batch's live lists are one input batch of the
// aggregate, grouped by the row that holds them, so the answers are the
// GROUP BY answers of the same values. list_aggregate(l, name) binds
// them (sql bind_func_call.go) for the aggregates below, and so does
// list_<name> itself, public where DuckDB 1.5.6 has the name (not
// list_fsum or list_favg), with an example call.
func init() {
	doubles := param{"list", function.Doubles}
	l := param{"list", function.List}
	set := func(agg, desc string, kind AggKind, ret columnar.Type, p param) *function.Set {
		o := over(ret, listAggState(kind), p)
		if ret.ID == columnar.Null {
			o.SameAs, o.Derive, o.Returns = 1, function.Elem, columnar.Type{}
		}
		name := "list_" + agg
		if agg == "fsum" || agg == "favg" {
			return internal(scalar("list", name, "list_aggregate(l, '"+agg+"'): "+desc, nil, o))
		}
		return scalar("list", name, "list_aggregate(l, '"+agg+"'): "+desc, ex(name+"([1, 2, 2, 4])"), o)
	}
	d := columnar.TFloat64
	function.Register(
		set("var_samp", "the sample variance of the elements", AggVarSamp, d, doubles),
		set("var_pop", "the population variance of the elements", AggVarPop, d, doubles),
		set("stddev_samp", "the sample standard deviation of the elements", AggStddevSamp, d, doubles),
		set("stddev_pop", "the population standard deviation of the elements", AggStddevPop, d, doubles),
		set("sem", "the standard error of the elements' mean", AggSem, d, doubles),
		set("fsum", "the compensated sum of the elements", AggFsum, d, doubles),
		set("favg", "the compensated average of the elements", AggFavg, d, doubles),
		set("entropy", "the base-2 entropy of the elements' frequencies", AggEntropy, d, l),
		set("approx_count_distinct", "an estimate of the number of distinct elements", AggApproxCountDistinct, columnar.TInt64, l),
		set("bit_and", "the bitwise AND of the integer elements", AggBitAnd, columnar.TNull, param{"list", function.Integers}),
		set("bit_or", "the bitwise OR of the integer elements", AggBitOr, columnar.TNull, param{"list", function.Integers}),
		set("bit_xor", "the bitwise XOR of the integer elements", AggBitXor, columnar.TNull, param{"list", function.Integers}),
	)
}

// listAggState is the Factory of the list form of aggregate kind: per
// batch, a fresh state with a group per row of the batch.
func listAggState(kind AggKind) function.Factory {
	return func(_ []columnar.Type, _ []*columnar.Value, ret columnar.Type) (function.Kernel, error) {
		var gids []int32
		var sel []int
		return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
			x := args[0]
			if x.Const {
				x = expandConst(x, b.Len)
			}
			elems := x.Kids[0]
			if cap(gids) < x.KidLen {
				gids = make([]int32, x.KidLen)
			}
			gids, sel = gids[:x.KidLen], sel[:0]
			b.ForEach(func(i int) {
				if x.IsNull(i) {
					return
				}
				for j := x.Starts[i]; j < x.Ends[i]; j++ {
					gids[j] = int32(i)
					sel = append(sel, int(j))
				}
			})

			if sel == nil {
				sel = []int{} // no element: an empty selection, not every row
			}
			s := newAggState(AggSpec{Kind: kind, Type: ret})
			s.in = elems.Type
			s.grow(b.Len)
			if err := s.update(&columnar.Batch{Len: x.KidLen, Sel: sel}, elems, gids); err != nil {
				return err
			}
			s.result(out, 0, b.Len)
			return nil
		}, nil
	}
}
