package executor

import (
	"fmt"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// interval_of(n DOUBLE, unit DOUBLE [, months BIGINT]) is n units of unit
// microseconds as an INTERVAL: INTERVAL (x) DAY and to_days(x) with a
// non-constant x. The optional third argument is for the binder only (the
// calendar months per unit, see sql/interval_calendar.go).
func init() {
	moreFuncs["interval_of"] = struct {
		f      rowFunc
		strict bool
	}{fnIntervalOf, true}
}

func fnIntervalOf(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	us := math.Round(a[0].F * a[1].F)
	if math.IsNaN(us) || math.Abs(us) >= 1<<63 {
		return columnar.Value{}, fmt.Errorf("interval of %v × %v microseconds is out of range", a[0].F, a[1].F)
	}
	return columnar.IntValue(t, int64(us)), nil
}
