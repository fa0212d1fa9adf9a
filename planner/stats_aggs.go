package planner

// The statistics aggregates (DuckDB's skewness, kurtosis, product, …;
// executor/aggstate_stats.go computes them). They are numbered among the
// holistic kinds, so that each runs as one final aggregate (no
// partial/merge split); their numbers match the executor's AggSkewness….
const (
	AggSkewness    AggFunc = 40 + iota // skewness(x): sample skewness, DOUBLE
	AggKurtosis                        // kurtosis(x): sample excess kurtosis
	AggKurtosisPop                     // kurtosis_pop(x): population excess kurtosis
	AggProduct                         // product(x)
	AggSem                             // sem(x): standard error of the mean
	AggFsum                            // fsum(x), sumkahan, kahan_sum: Kahan-compensated sum
	AggFavg                            // favg(x): Kahan-compensated mean
	AggEntropy                         // entropy(x): base-2 entropy of the values' frequencies, any type
	AggMad                             // mad(x): median absolute deviation (x's type for FLOAT and DECIMAL, INTERVAL for temporal x)
)

func init() {
	for f, name := range map[AggFunc]string{AggSkewness: "skewness", AggKurtosis: "kurtosis", AggKurtosisPop: "kurtosis_pop",
		AggProduct: "product", AggSem: "sem", AggFsum: "fsum", AggFavg: "favg", AggEntropy: "entropy", AggMad: "mad"} {
		holisticNames[f] = name
	}
}
