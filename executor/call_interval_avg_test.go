package executor

import (
	"math/big"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestIntervalAvgLargeCount: past 10^8 rows the days remainder's
// microseconds leave 64 bits; the result is still the exact quotient.
func TestIntervalAvgLargeCount(t *testing.T) {
	n := int64(3e9)
	d := n - 1 // every day but one row's: days 0, remainder n-1
	got, err := intervalAvg(0, d, 0, n)
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).Mul(big.NewInt(d), big.NewInt(columnar.MicrosPerDay))
	want.Quo(want, big.NewInt(n))
	if iv := got.Interval(); iv.Months != 0 || iv.Days != 0 || iv.Micros != want.Int64() {
		t.Fatalf("avg = %+v, want %s µs", iv, want)
	}
}
