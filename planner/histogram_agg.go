package planner

// histogram(x): a MAP of each distinct non-NULL value to its count, keys in
// order (executor/aggstate_histogram.go); the bins forms histogram(x, bins)
// and histogram_exact(x, bins) count binned values (sql
// bind_agg_histogram.go). Holistic: one final aggregate per group. The
// number matches executor.AggHistogram.
const AggHistogram AggFunc = 56

func init() { holisticNames[AggHistogram] = "histogram" }

// approx_top_k(x, k): the LIST of the k most frequent non-NULL values,
// most frequent first (executor/aggstate_topk.go); Param is k. Holistic,
// counted as histogram counts. The number matches executor.AggApproxTopK.
const AggApproxTopK AggFunc = 106

func init() { holisticNames[AggApproxTopK] = "approx_top_k" }
