package planner

// AggApproxQuantile is approx_quantile(x, Param): DuckDB's t-digest
// estimate of quantile Param (executor/aggstate_approx_quantile.go). It is
// numbered among the holistic kinds (one final aggregate, no partials);
// its number matches the executor's.
const AggApproxQuantile AggFunc = 50

func init() { holisticNames[AggApproxQuantile] = "approx_quantile" }
