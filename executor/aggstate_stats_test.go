package executor

import (
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// twoPass computes the central moments m2, m3, m4 of xs about their mean,
// independently of the raw power sums statState keeps.
func twoPass(xs []float64) (n, m2, m3, m4 float64) {
	n = float64(len(xs))
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= n
	for _, x := range xs {
		d := x - mean
		m2 += d * d / n
		m3 += d * d * d / n
		m4 += d * d * d * d / n
	}
	return n, m2, m3, m4
}

func TestStatStateMatchesTwoPass(t *testing.T) {
	xs := []float64{1, 4, 9, 3, -2.5, 7.25, 0.5}
	n, m2, m3, m4 := twoPass(xs)
	want := map[AggKind]float64{
		AggSkewness:    math.Sqrt(n*(n-1)) / (n - 2) * m3 / math.Pow(m2, 1.5),
		AggKurtosisPop: m4/(m2*m2) - 3,
		AggKurtosis:    (n - 1) * ((n+1)*m4/(m2*m2) - 3*(n-1)) / ((n - 2) * (n - 3)),
		AggSem:         math.Sqrt(m2) / math.Sqrt(n),
		AggProduct:     1 * 4 * 9 * 3 * -2.5 * 7.25 * 0.5,
		AggFsum:        22.25,
		AggFavg:        22.25 / 7,
	}
	for kind, w := range want {
		var st statState
		for _, x := range xs {
			st.add(kind, x)
		}
		got, ok := st.result(kind)
		if !ok || math.Abs(got-w) > 1e-12*math.Max(1, math.Abs(w)) {
			t.Errorf("kind %d: got %v (%v), want %v", kind, got, ok, w)
		}
	}
}

func TestStatStateNulls(t *testing.T) {
	cases := []struct {
		kind AggKind
		xs   []float64
	}{
		{AggSkewness, []float64{1, 2}},               // fewer than 3 values
		{AggSkewness, []float64{10, 10, 10, 10, 10}}, // no spread
		{AggKurtosis, []float64{1, 2, 3}},            // fewer than 4 values
		{AggKurtosisPop, []float64{0, 0, 0, 0, 0, 0}},
		{AggProduct, nil},
		{AggFsum, nil},
	}
	for _, c := range cases {
		var st statState
		for _, x := range c.xs {
			st.add(c.kind, x)
		}
		if v, ok := st.result(c.kind); ok {
			t.Errorf("kind %d of %v: got %v, want NULL", c.kind, c.xs, v)
		}
	}
	// Overflowing power sums are not finite: stat_check turns that into
	// DuckDB's error.
	var st statState
	for _, x := range []float64{-2e307, 0, 2e307} {
		st.add(AggSkewness, x)
	}
	if v, ok := st.result(AggSkewness); ok && !math.IsInf(v, 0) && !math.IsNaN(v) {
		t.Errorf("skewness of ±2e307: got %v, want a non-finite value", v)
	}
	if _, err := fnStatCheck([]columnar.Value{columnar.FloatValue(columnar.TFloat64, math.NaN()), columnar.StringValue("skewness")}, columnar.TFloat64); err == nil {
		t.Error("stat_check(nan): no error")
	}
}

func TestPowRounded(t *testing.T) {
	for _, x := range []float64{0.1, 1.1, 3, -7.5, 1e100, 2e307} {
		for k := 2; k <= 4; k++ {
			want := math.Pow(x, float64(k))
			got := powRounded(x, k)
			if got != want && math.Abs(got-want) > 1e-15*math.Abs(want) {
				t.Errorf("powRounded(%v, %d) = %v, want %v", x, k, got, want)
			}
		}
	}
}

func TestMad(t *testing.T) {
	if got := madFloats([]float64{1, 3, 4, 10, 5}, false); got != 1 {
		// values 1 3 4 5 10: median 4, distances 3 1 0 1 6 → 1
		t.Errorf("madFloats = %v, want 1", got)
	}
	if got := madFloats([]float64{1, 3, 4, 10}, false); got != 1.5 {
		// median 3.5, distances 2.5 0.5 0.5 6.5 → (0.5+2.5)/2
		t.Errorf("madFloats = %v, want 1.5", got)
	}
	// DECIMAL(3,0) extremes: the median -0.5 truncates to 0, distances
	// 127 and 128 interpolate to 127.5, truncated to 127 (DuckDB).
	if got := madDecimal([]int64{127, -128}); got != 127 {
		t.Errorf("madDecimal = %v, want 127", got)
	}
	wide := []columnar.Int128{columnar.Int128Of(127), columnar.Int128Of(-128)}
	if got := madWide(wide); got != columnar.Int128Of(127) {
		t.Errorf("madWide = %v, want 127", got)
	}
	// Days 0, 3, 1, 425 → median 2 days; distances 2 1 1 423 → 1.5 days.
	iv := madTemporal(madMicros(columnar.TDate, []int64{0, 3, 1, 425}))
	if want := (columnar.IntervalParts{Days: 1, Micros: 12 * 3600 * 1e6}); iv != want {
		t.Errorf("madTemporal = %+v, want %+v", iv, want)
	}
}

func TestEntropyOf(t *testing.T) {
	// Counts 3, 2, 1 of 6 values: -Σ p·log2 p.
	p := []float64{3.0 / 6, 2.0 / 6, 1.0 / 6}
	var want float64
	for _, q := range p {
		want -= q * math.Log2(q)
	}
	if got := entropyOf([]int64{2, 3, 1}); math.Abs(got-want) > 1e-15 {
		t.Errorf("entropyOf = %v, want %v", got, want)
	}
	if got := entropyOf(nil); got != 0 {
		t.Errorf("entropyOf(nil) = %v, want 0", got)
	}
}
