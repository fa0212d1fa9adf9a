package executor

import (
	"math"
	"math/big"

	"github.com/b2sql/b2sql/columnar"
)

// interpInt and interpFloat32 are DuckDB 1.5's interpolation of an
// integer (a DECIMAL's unscaled value) or a FLOAT: lo + T((hi-lo)·d), the
// step truncated to the type (DECIMAL(4,1) -0.5 and 0.5 at 0.3 give -0.2).
func interpInt(lo, hi int64, d float64) int64 { return lo + int64(float64(hi-lo)*d) }

func interpFloat32(lo, hi float32, d float64) float32 { return lo + float32(float64(hi-lo)*d) }

// interpWide is DuckDB 1.5's HUGEINT interpolation: lo·(1-d) + hi·d in
// doubles, truncated (DECIMAL(24,1) -0.5 and 0.5 at 0.7 give 0.1).
func interpWide(lo, hi columnar.Int128, d float64) columnar.Int128 {
	if d == 0 {
		return lo
	}
	r, _ := columnar.Int128FromBig(bigTrunc(lo.Float()*(1-d) + hi.Float()*d))
	return r
}

// bigTrunc is f truncated toward zero, as an integer (0 for NaN or an
// infinity).
func bigTrunc(f float64) *big.Int {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return new(big.Int)
	}
	b, _ := new(big.Float).SetFloat64(f).Int(nil)
	return b
}
