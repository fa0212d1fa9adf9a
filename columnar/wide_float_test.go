package columnar

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestWideToFloat: WideFloat and CAST of a wide DECIMAL or HUGEINT to
// DOUBLE and FLOAT give the float nearest the exact quotient (computed
// here in 300-bit arithmetic), for values inside 64 bits (the shortcut)
// and past them (math/big), at every scale.
func TestWideToFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		scale := r.IntN(39)
		tp := Type{ID: Decimal128, Precision: 38, Scale: uint8(scale)}
		if r.IntN(5) == 0 {
			tp, scale = THugeint, 0
		}
		var n *big.Int
		switch r.IntN(3) {
		case 0:
			n = big.NewInt(r.Int64N(1<<53) - 1<<52)
		case 1:
			n = big.NewInt(int64(r.Uint64()))
		default:
			n = new(big.Int).Lsh(big.NewInt(r.Int64()), uint(r.IntN(60)))
		}
		if tp.ID == Decimal128 && new(big.Int).Abs(n).Cmp(Pow10Big(38)) >= 0 {
			continue
		}
		v, ok := WideFromBig(tp, n)
		if !ok {
			t.Fatalf("WideFromBig(%s, %s)", tp, n)
		}
		q := new(big.Float).SetPrec(300).SetInt(n)
		q.Quo(q, new(big.Float).SetPrec(300).SetInt(Pow10Big(scale)))
		want, _ := q.Float64()
		if got := WideFloat(v); got != want {
			t.Fatalf("WideFloat(%s) = %v, want %v", v, got, want)
		}
		out, handled, ok := CastWide(v, TFloat64)
		if !handled || !ok || out.F != want {
			t.Fatalf("CAST(%s AS DOUBLE) = %v %v %v, want %v", v, out.F, handled, ok, want)
		}
		want32, _ := q.Float32()
		if math.IsInf(float64(want32), 0) {
			continue
		}
		out, handled, ok = CastWide(v, TFloat32)
		if !handled || !ok || out.F != float64(want32) {
			t.Fatalf("CAST(%s AS FLOAT) = %v %v %v, want %v", v, out.F, handled, ok, want32)
		}
	}
}
