package columnar

import (
	"math"
	"testing"
)

// TestAppendJSONFloat: doubles as DuckDB 1.5's JSON writer writes them,
// each answer from `COPY (SELECT [x, …] l) TO 'f.json'` in DuckDB 1.5.6.
func TestAppendJSONFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{1.5e22, "1.5e22"},
		{1.5e-7, "1.5e-7"},
		{1.23e-10, "1.23e-10"},
		{9.999e20, "999900000000000000000.0"},
		{1e20, "100000000000000000000.0"},
		{1e21, "1e21"},
		{1e300, "1e300"},
		{-1e300, "-1e300"},
		{1.7976931348623157e308, "1.7976931348623157e308"},
		{5e-324, "5e-324"},
		{1e-6, "0.000001"},
		{1.5e-6, "0.0000015"},
		{1e-7, "1e-7"},
		{0.000123, "0.000123"},
		{1234567500000000, "1234567500000000.0"},
		{float64(float32(0.1)), "0.10000000149011612"},
		{2, "2.0"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{math.NaN(), "NaN"},
	} {
		if got := string(AppendJSONFloat([]byte("x"), tc.f)); got != "x"+tc.want {
			t.Errorf("AppendJSONFloat(%v) = %q, want %q", tc.f, got[1:], tc.want)
		}
	}
}
