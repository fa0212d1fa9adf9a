package planner

// The aggregates of (y, x) pairs (DuckDB's covar_*, corr and regr_*;
// executor/aggstate_pair.go): Arg is y, Arg2 x, both DOUBLE; rows where
// either is NULL are skipped. They keep running co-moments, never values,
// but are numbered among the holistic kinds so that they run as one final
// aggregate (no partial/merge split).
const (
	AggCovarPop      AggFunc = 60 + iota // covar_pop(y, x)
	AggCovarSamp                         // covar_samp(y, x)
	AggCorr                              // corr(y, x)
	AggRegrCount                         // regr_count(y, x): UINTEGER
	AggRegrAvgX                          // regr_avgx(y, x)
	AggRegrAvgY                          // regr_avgy(y, x)
	AggRegrSlope                         // regr_slope(y, x)
	AggRegrIntercept                     // regr_intercept(y, x)
	AggRegrR2                            // regr_r2(y, x)
	AggRegrSXX                           // regr_sxx(y, x)
	AggRegrSYY                           // regr_syy(y, x)
	AggRegrSXY                           // regr_sxy(y, x)
)

// PairAggNames are the pair aggregates by SQL name.
var PairAggNames = map[string]AggFunc{
	"covar_pop": AggCovarPop, "covar_samp": AggCovarSamp, "corr": AggCorr, "regr_count": AggRegrCount,
	"regr_avgx": AggRegrAvgX, "regr_avgy": AggRegrAvgY, "regr_slope": AggRegrSlope, "regr_intercept": AggRegrIntercept,
	"regr_r2": AggRegrR2, "regr_sxx": AggRegrSXX, "regr_syy": AggRegrSYY, "regr_sxy": AggRegrSXY,
}

func init() {
	for name, f := range PairAggNames {
		holisticNames[f] = name
	}
}
