package executor

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// BenchmarkFloatDiv is x / y and x / const over 1024 DOUBLEs without a
// selection: the plain loops (/ has no NULL results, by zero ±inf or nan).
func BenchmarkFloatDiv(b *testing.B) {
	const n = 1024
	x := columnar.NewVector(columnar.TFloat64, n)
	y := columnar.NewVector(columnar.TFloat64, n)
	for i := range n {
		x.Floats[i] = float64(i) + 0.5
		y.Floats[i] = float64(i%7 + 1)
	}
	k := columnar.NewVector(columnar.TFloat64, 1)
	k.Floats[0], k.Const = 3, true
	out := columnar.NewVector(columnar.TFloat64, n)
	batch := &columnar.Batch{Len: n}
	for _, tc := range []struct {
		name string
		y    *columnar.Vector
	}{{"vec", y}, {"const", k}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(8 * n)
			for b.Loop() {
				if err := floatArith(opDiv, x, tc.y, batch, out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkDecimalMul is TPC-H's l_extendedprice * (1 - l_discount) over
// 1024 rows without a selection: DECIMAL(15,2) prices below 10^7 times
// factors 0.90 … 1.00, in the DECIMAL(18,4) product.
func BenchmarkDecimalMul(b *testing.B) {
	const n = 1024
	t := columnar.DecimalType(18, 4)
	x := columnar.NewVector(t, n)
	y := columnar.NewVector(t, n)
	for i := range n {
		x.Ints[i] = 90_000 + int64(uint64(i)*0x9E3779B97F4A7C15>>40)%10_000_000
		y.Ints[i] = 90 + int64(i%11)
	}
	out := columnar.NewVector(t, n)
	batch := &columnar.Batch{Len: n}
	lo, hi := t.IntRange()
	b.SetBytes(8 * n)
	for b.Loop() {
		if err := intArith(opMul, t, lo, hi, x, y, batch, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
}
