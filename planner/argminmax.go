package planner

import "github.com/b2sql/b2sql/columnar"

// arg_max(arg, val) / arg_min(arg, val): Arg is the arg, Arg2 the val
// compared (executor/aggstate_argminmax.go has the semantics). The numbers
// match executor.AggArgMax/AggArgMin, above every holistic kind; unlike
// those, a partial arg_max plus its best val merges into a final one, so
// they run as parallel partial aggregates (parallel.go).
const (
	AggArgMax AggFunc = 100
	AggArgMin AggFunc = 101
)

func init() {
	holisticNames[AggArgMax] = "arg_max"
	holisticNames[AggArgMin] = "arg_min"
}

// ArgMinMax reports whether f is arg_max or arg_min.
func (f AggFunc) ArgMinMax() bool { return f == AggArgMax || f == AggArgMin }

// first(x) / last(x): the x of the first (last) row of the group in input
// order, NULL included (executor/aggstate_firstlast.go). Like arg_max they
// keep one value per group and a partial first merges into a final first,
// so they run as parallel partial aggregates; with several threads
// "first" is the first row some worker saw, as in DuckDB.
const (
	AggFirst AggFunc = 102
	AggLast  AggFunc = 103
)

func init() {
	holisticNames[AggFirst] = "first"
	holisticNames[AggLast] = "last"
}

// KeepsOne reports whether f keeps one row's value per group and merges
// partial results: arg_max, arg_min, first and last.
func (f AggFunc) KeepsOne() bool { return f.ArgMinMax() || f == AggFirst || f == AggLast }

// arg_max(arg, val, n) / arg_min(arg, val, n), and max(x, n) / min(x, n)
// as arg_max(x, x, n): the LIST of the args of the n rows with the
// largest (smallest) vals, best first (executor/aggstate_topn.go). Arg is
// the arg, Arg2 the val (nil: the arg itself); Param is TopNParam's
// STRUCT. They keep up to n rows per group and do not merge partial
// lists, so they run like the holistic kinds (one phase).
const (
	AggArgMaxN AggFunc = 104
	AggArgMinN AggFunc = 105
)

func init() {
	holisticNames[AggArgMaxN] = "arg_max_n"
	holisticNames[AggArgMinN] = "arg_min_n"
}

// TopNParam is the Param of AggArgMaxN / AggArgMinN: n, and whether the
// call was DISTINCT (kept here, not in AggCall.Distinct: the rows an
// aggregate compares are two columns, which GROUP BY's DISTINCT, of one
// argument, would not deduplicate as pairs).
func TopNParam(n int64, distinct bool) columnar.Value {
	t := columnar.StructOf(columnar.Field{Name: "n", Type: columnar.TInt64}, columnar.Field{Name: "distinct", Type: columnar.TBool})
	return columnar.Value{Type: t, Elems: []columnar.Value{columnar.IntValue(columnar.TInt64, n), columnar.BoolValue(distinct)}}
}
