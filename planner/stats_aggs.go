package planner

// The statistics aggregates over a group's values (DuckDB's skewness,
// kurtosis, entropy, product, …; executor/aggstate_stats.go computes
// them). They are holistic; their numbers match the executor's
// AggSkewness…, between the holistic kinds and arg_max.
const (
	AggSkewness    AggFunc = 40 + iota // skewness(x): sample skewness, DOUBLE
	AggKurtosis                        // kurtosis(x): sample excess kurtosis
	AggKurtosisPop                     // kurtosis_pop(x): population excess kurtosis
	AggEntropy                         // entropy(x): base-2 entropy of the values' frequencies, any type
	AggProduct                         // product(x)
	AggGeomean                         // geomean(x), geometric_mean(x)
	AggSem                             // sem(x): standard error of the mean
	AggFsum                            // fsum(x), sumkahan, kahan_sum: compensated sum
	AggFavg                            // favg(x): compensated mean
	AggMad                             // mad(x): median absolute deviation, DOUBLE (x's type for DECIMAL)
)

func init() {
	for f, name := range map[AggFunc]string{AggSkewness: "skewness", AggKurtosis: "kurtosis", AggKurtosisPop: "kurtosis_pop",
		AggEntropy: "entropy", AggProduct: "product", AggGeomean: "geomean", AggSem: "sem", AggFsum: "fsum", AggFavg: "favg", AggMad: "mad"} {
		holisticNames[f] = name
	}
}
