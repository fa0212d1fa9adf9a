package executor

import "github.com/b2sql/b2sql/columnar"

// first(x) / last(x): the x of the group's first (last) row in the order
// the state sees its rows, NULL included (DuckDB's first/last; any_value
// is the first non-NULL one). They keep one value per group in the
// arg_max state (args) and finish as it does (argResult); a partial
// first's result merges into a final first (planner/argminmax.go).
const (
	AggFirst AggKind = 102
	AggLast  AggKind = 103
)

// keepsOne reports whether k keeps one row's value per group in args.
func (k AggKind) keepsOne() bool { return k.argMinMax() || k == AggFirst || k == AggLast }

// updateFirstLast folds the live rows of b into the groups gids[i]. In
// the final phase of a parallel first/last, rows is the spec's Arg2, the
// partial's count of rows: a partial of none (an ungrouped worker that
// saw no row) is skipped.
func (s *aggState) updateFirstLast(b *columnar.Batch, arg *columnar.Vector, rows Expr, gids []int32) error {
	if arg.Const {
		arg = expandConst(arg, b.Len)
	}
	var n *columnar.Vector
	if rows != nil {
		var err error
		if n, err = rows.Eval(b); err != nil {
			return err
		}
		if n.Const {
			n = expandConst(n, b.Len)
		}
	}
	last := s.spec.Kind == AggLast
	b.ForEach(func(i int) {
		g := gids[i]
		if s.count[g] > 0 && !last || n != nil && (n.IsNull(i) || n.Ints[i] == 0) {
			return
		}
		s.args[g].arg = arg.Value(i)
		s.count[g]++
	})

	return nil
}
