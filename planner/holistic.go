package planner

// Holistic aggregates need every value of a group, so they never run as
// parallel partial aggregates. Their numbers continue after the executor's
// internal AggAvgMerge (6), because Build converts AggFunc to
// executor.AggKind by number.
const (
	AggMedian              AggFunc = iota + 7 // median(x): quantile_cont(x, 0.5)
	AggQuantileCont                           // quantile_cont(x, Param): linear interpolation
	AggStringAgg                              // string_agg(x, Param): values joined by the separator, in input order
	AggVarSamp                                // var_samp(x), variance(x) (running moments, no values kept)
	AggVarPop                                 // var_pop(x)
	AggStddevSamp                             // stddev_samp(x), stddev(x)
	AggStddevPop                              // stddev_pop(x)
	AggApproxCountDistinct                    // approx_count_distinct(x): HyperLogLog estimate, BIGINT
	AggQuantileDisc                           // quantile_disc(x, Param): the value of rank ⌈n·q⌉-1, x's type
	AggMode                                   // mode(x): the most frequent value (first seen on a tie), x's type
	AggList                                   // array_agg(x), list(x): the values, NULLs included, in input order
)

var holisticNames = map[AggFunc]string{AggMedian: "median", AggQuantileCont: "quantile_cont", AggStringAgg: "string_agg",
	AggVarSamp: "var_samp", AggVarPop: "var_pop", AggStddevSamp: "stddev_samp", AggStddevPop: "stddev_pop",
	AggApproxCountDistinct: "approx_count_distinct", AggQuantileDisc: "quantile_disc", AggMode: "mode", AggList: "array_agg"}

// Holistic reports whether f needs all values of a group at once.
func (f AggFunc) Holistic() bool { return f >= AggMedian }

// AggReservoirQuantile is reservoir_quantile(x, Param): the value of rank
// ⌊(n-1)·q⌋, x's type (executor/aggstate_values.go). The number matches
// executor.AggReservoirQuantile.
const AggReservoirQuantile AggFunc = 107

func init() { holisticNames[AggReservoirQuantile] = "reservoir_quantile" }
