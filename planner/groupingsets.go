package planner

// AggAvgMerge averages partial results: Arg is a DOUBLE sum, Arg2 the
// matching BIGINT count (executor.AggAvgMerge, the same number). The
// binder's grouping sets use it to re-aggregate averages from the finest
// set (sql/bind_grouping_sets.go); its input is never a scan, so it never
// runs as a parallel partial aggregate.
const AggAvgMerge AggFunc = 6

func init() { holisticNames[AggAvgMerge] = "avg" }
