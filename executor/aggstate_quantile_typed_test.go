package executor

import (
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// The interpolations below reproduce answers of DuckDB 1.5.6 (the
// values in the comments), which rounds at the edges as the integer step
// and double weights make it.
func TestInterpolations(t *testing.T) {
	// quantile_cont(x::DECIMAL(4,1), 0.3/0.7) of -0.5, 0.5: -0.2, 0.2.
	if got := interpInt(-5, 5, 0.3); got != -2 {
		t.Errorf("interpInt(-5, 5, 0.3) = %d, want -2", got)
	}
	if got := interpInt(-5, 5, 0.7); got != 2 {
		t.Errorf("interpInt(-5, 5, 0.7) = %d, want 2", got)
	}
	// quantile_cont(range(100)::DECIMAL(5,1), 0.3) = 29.6: rank 29, d = 99·0.3 - 29.
	_, d := contRank(100, 0.3)
	if got := interpInt(290, 300, d); got != 296 {
		t.Errorf("interpInt(290, 300, %v) = %d, want 296", d, got)
	}
	// DECIMAL(24,1): 0.7 of -0.5, 0.5 is 0.1 (doubles, truncated).
	if got := interpWide(columnar.Int128Of(-5), columnar.Int128Of(5), 0.7); got != columnar.Int128Of(1) {
		t.Errorf("interpWide = %v, want 1", got)
	}
	// FLOAT: 0.3 of -0.5, 0.5 is -0.19999999.
	if got := interpFloat32(-0.5, 0.5, 0.3); got != float32(-0.19999999) {
		t.Errorf("interpFloat32 = %v, want -0.19999999", got)
	}
}

func TestTDigestSmall(t *testing.T) {
	// Fewer values than the buffer: every centroid is one value, and a
	// quantile interpolates between centroid centres at q·n (value i at
	// i + 0.5), clamped to the ends.
	d := newTDigest(100)
	for i := 9; i >= 0; i-- {
		d.addValue(float64(i))
	}
	d.addValue(math.NaN()) // ignored
	f := d.finalized()
	for _, c := range []struct{ q, want float64 }{{0.5, 4.5}, {0.25, 2}, {0.05, 0}, {1, 9}} {
		if got := f.quantile(c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	// approx_quantile of 0, 1, 2, 10 at 0.5, 0.4, 0.1 is [2, 1, 0] in
	// DuckDB: 1.5, 1.1, 0 rounded half to even.
	d = newTDigest(100)
	for _, x := range []float64{0, 1, 2, 10} {
		d.addValue(x)
	}
	f = d.finalized()
	for _, c := range []struct{ q, want float64 }{{0.5, 2}, {0.4, 1}, {0.1, 0}} {
		v := digestValue(columnar.TInt32, f.quantile(float64(float32(c.q))))
		if float64(v.I) != c.want {
			t.Errorf("approx_quantile(%v) = %v, want %v", c.q, v.I, c.want)
		}
	}
	// Results clamp to the type's range.
	if v := digestValue(columnar.TInt16, 1e9); v.I != math.MaxInt16 {
		t.Errorf("digestValue(SMALLINT, 1e9) = %d", v.I)
	}
}
