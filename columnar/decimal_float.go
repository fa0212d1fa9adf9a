package columnar

import (
	"math"
	"strconv"
)

// DecimalFloat is the float64 nearest to the DECIMAL whose unscaled value
// is v at scale s, as DuckDB converts: 0.41000000000000003 (unscaled
// 41000000000000003, past 2^53) must not first round its integer.
// A division of two exactly representable numbers rounds once, so the
// common case stays one division; the rest goes through the decimal text.
func DecimalFloat(v int64, s int) float64 {
	const exact = 1 << 53
	if v >= -exact && v <= exact && s <= 22 {
		return float64(v) / math.Pow10(s)
	}
	f, _ := strconv.ParseFloat(string(AppendDecimal(nil, v, s)), 64)
	return f
}
