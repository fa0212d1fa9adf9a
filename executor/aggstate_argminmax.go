package executor

import (
	"cmp"

	"github.com/b2sql/b2sql/columnar"
)

// arg_max(arg, val) / arg_min(arg, val) (DuckDB's max_by / min_by): the arg
// of a row whose val is the largest (smallest); rows with a NULL val or a
// NULL arg are ignored (DuckDB 1.x; arg_min_null keeps NULL args). Among rows tied on val the first
// one the state sees wins, which with several threads is any of them. The
// numbers are far above the holistic kinds (the planner's AggFunc, converted
// by number, matches); they are not holistic: a partial arg_max, plus its
// best val, merges into a final arg_max (planner/parallel.go).
const (
	AggArgMax AggKind = 100
	AggArgMin AggKind = 101
)

func (k AggKind) argMinMax() bool { return k == AggArgMax || k == AggArgMin }

// argBest is a group's state: the best val so far and its row's arg.
type argBest struct{ arg, val columnar.Value }

// updateArg folds the live rows of b into the groups gids[i]; arg is the
// evaluated Arg, valExpr the spec's Arg2.
func (s *aggState) updateArg(b *columnar.Batch, arg *columnar.Vector, valExpr Expr, gids []int32) error {
	val, err := valExpr.Eval(b)
	if err != nil {
		return err
	}
	val = decodeLive(val, b, &s.argScratch)
	if val.Const {
		val = expandConst(val, b.Len)
	}
	if arg.Const {
		arg = expandConst(arg, b.Len)
	}
	isMin := s.spec.Kind == AggArgMin
	b.ForEach(func(i int) {
		if val.IsNull(i) || arg.IsNull(i) {
			return
		}
		g := gids[i]
		best := &s.args[g]
		if s.count[g] > 0 {
			c := compareRow(val, i, best.val)
			if c == 0 || (c < 0) != isMin {
				return
			}
		}
		best.arg, best.val = arg.Value(i), val.Value(i)
		s.count[g]++
	})

	return nil
}

// compareRow compares row i of v with x (same physical type, neither NULL)
// without boxing the row.
func compareRow(v *columnar.Vector, i int, x columnar.Value) int {
	switch v.Type.Phys() {
	case columnar.PhysInt:
		return cmp.Compare(v.Ints[i], x.I)
	case columnar.PhysUint:
		return cmp.Compare(v.Uints[i], uint64(x.I))
	case columnar.PhysFloat:
		return columnar.CompareFloat(v.Floats[i], x.F)
	case columnar.PhysBytes:
		// string(…) in a comparison does not copy
		switch y := v.Bytes[i]; {
		case string(y) < x.S:
			return -1
		case string(y) > x.S:
			return 1
		}
		return 0
	case columnar.PhysBool:
		var y int64
		if v.Bools[i] {
			y = 1
		}
		return cmp.Compare(y, x.I)
	case columnar.PhysNested:
		return columnar.Compare(v.Value(i), x)
	}
	return 0
}

// argResult writes groups [from, to): NULL where no row had a val.
func (s *aggState) argResult(out *columnar.Vector, from, to int) {
	n := to - from
	for k := range n {
		g := from + k
		if s.count[g] == 0 {
			out.SetNull(k, n)
			continue
		}
		out.SetValue(k, n, s.args[g].arg)
	}
}
