package executor

import (
	"fmt"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// interval_mul(INTERVAL, BIGINT|DOUBLE) and interval_div(INTERVAL, DOUBLE)
// scale an interval (microseconds); a fractional result is rounded to the
// microsecond, x / 0 is NULL (as DuckDB), overflow is an error.
func init() {
	defRow("interval_mul", fnIntervalMul, true)
	defRow("interval_div", fnIntervalDiv, true)
}

func fnIntervalMul(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	us := a[0].I
	if a[1].Type.ID == columnar.Int64 {
		n := a[1].I
		if n != 0 && (us*n/n != us || n == -1 && us == math.MinInt64) {
			return columnar.Value{}, fmt.Errorf("interval of %d microseconds × %d is out of range", us, n)
		}
		return columnar.IntValue(t, us*n), nil
	}
	return scaledInterval(us, a[1].F, t)
}

func fnIntervalDiv(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[1].F == 0 {
		return columnar.NullValue(t), nil
	}
	return scaledInterval(a[0].I, 1/a[1].F, t)
}

func scaledInterval(us int64, k float64, t columnar.Type) (columnar.Value, error) {
	r := math.Round(float64(us) * k)
	if math.IsNaN(r) || math.Abs(r) >= 1<<63 {
		return columnar.Value{}, fmt.Errorf("interval of %d microseconds × %v is out of range", us, k)
	}
	return columnar.IntValue(t, int64(r)), nil
}
