package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// The aggregates of (y, x) pairs (planner/pair_aggs.go): Arg is y, Arg2
// x, both DOUBLE. Each group keeps Welford's running co-moments, as
// DuckDB's covar/corr/regr states do, and the results follow DuckDB's
// rules for empty groups and zero spreads.
const (
	AggCovarPop AggKind = 60 + iota
	AggCovarSamp
	AggCorr
	AggRegrCount
	AggRegrAvgX
	AggRegrAvgY
	AggRegrSlope
	AggRegrIntercept
	AggRegrR2
	AggRegrSXX
	AggRegrSYY
	AggRegrSXY
)

func (k AggKind) pair() bool { return k >= AggCovarPop && k <= AggRegrSXY }

// pairKinds are the pair aggregates by the name a window function carries.
var pairKinds = map[string]AggKind{
	"covar_pop": AggCovarPop, "covar_samp": AggCovarSamp, "corr": AggCorr, "regr_count": AggRegrCount,
	"regr_avgx": AggRegrAvgX, "regr_avgy": AggRegrAvgY, "regr_slope": AggRegrSlope, "regr_intercept": AggRegrIntercept,
	"regr_r2": AggRegrR2, "regr_sxx": AggRegrSXX, "regr_syy": AggRegrSYY, "regr_sxy": AggRegrSXY,
}

// coMoments are one group's count, means and sums of squared deviations
// and of cross deviations.
type coMoments struct {
	n, mx, my, m2x, m2y, cxy float64
}

func (m *coMoments) add(y, x float64) {
	m.n++
	dx := x - m.mx
	dy := y - m.my
	m.mx += dx / m.n
	m.my += dy / m.n
	m.m2x += dx * (x - m.mx)
	m.m2y += dy * (y - m.my)
	m.cxy += dx * (y - m.my)
}

// updatePair folds the live rows where y (arg) and x (Arg2) are both
// non-NULL into their groups.
func (s *aggState) updatePair(b *columnar.Batch, y *columnar.Vector, xExpr Expr, gids []int32) error {
	x, err := xExpr.Eval(b)
	if err != nil {
		return err
	}
	if x.Const {
		x = expandConst(x, b.Len)
	}
	if y.Const {
		y = expandConst(y, b.Len)
	}
	b.ForEach(func(i int) {
		if y.IsNull(i) || x.IsNull(i) {
			return
		}
		s.co[gids[i]].add(y.Floats[i], x.Floats[i])
	})

	return nil
}

// pairResult writes groups [from, to) into out.
func (s *aggState) pairResult(out *columnar.Vector, from, to int) {
	n := to - from
	for k := range n {
		m := s.co[from+k]
		if s.spec.Kind == AggRegrCount {
			out.Ints[k] = int64(m.n)
			continue
		}
		v, ok := m.result(s.spec.Kind)
		if !ok {
			out.SetNull(k, n)
			continue
		}
		out.Floats[k] = v
	}
}

// result is aggregate kind of the group; ok is false where DuckDB gives
// NULL (no pairs, a sample of one, a regression on a constant x).
func (m coMoments) result(kind AggKind) (float64, bool) {
	if m.n == 0 {
		return 0, false
	}
	switch kind {
	case AggCovarPop:
		return m.cxy / m.n, true
	case AggCovarSamp:
		if m.n < 2 {
			return 0, false
		}
		return m.cxy / (m.n - 1), true
	case AggCorr:
		// DuckDB: a zero spread divides by zero, giving nan.
		sx, sy := math.Sqrt(m.m2x/m.n), math.Sqrt(m.m2y/m.n)
		if sx*sy == 0 {
			return math.NaN(), true
		}
		return (m.cxy / m.n) / (sx * sy), true
	case AggRegrAvgX:
		return m.mx, true
	case AggRegrAvgY:
		return m.my, true
	case AggRegrSlope:
		return m.cxy / m.m2x, true // 0/0 is nan, as in DuckDB
	case AggRegrIntercept:
		slope := m.cxy / m.m2x
		if math.IsNaN(slope) || math.IsInf(slope, 0) {
			return 0, false
		}
		return m.my - slope*m.mx, true
	case AggRegrR2:
		switch {
		case m.m2x == 0:
			return 0, false
		case m.m2y == 0:
			return 1, true
		}
		r := m.cxy / math.Sqrt(m.m2x*m.m2y)
		return r * r, true
	case AggRegrSXX:
		return m.m2x, true
	case AggRegrSYY:
		return m.m2y, true
	case AggRegrSXY:
		return m.cxy, true
	}
	return 0, false
}
