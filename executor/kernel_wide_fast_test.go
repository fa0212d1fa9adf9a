package executor

import (
	"math"
	"math/big"
	oldrand "math/rand"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestWideArithFast: the 128-bit shortcut against math/big on random and
// extreme operands. Where the shortcut answers, its value is the exact
// one; it declines exactly when the exact result is out of the type's
// range (and for shapes it does not handle: a rescale, an unsigned
// operand), leaving the exact path to report.
func TestWideArithFast(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	old := oldrand.New(oldrand.NewSource(3)) // big.Int.Rand takes math/rand
	d152 := columnar.Type{ID: columnar.Decimal, Precision: 15, Scale: 2}
	d183 := columnar.Type{ID: columnar.Decimal, Precision: 18, Scale: 3}
	w304 := columnar.Type{ID: columnar.Decimal128, Precision: 30, Scale: 4}
	w385 := columnar.Type{ID: columnar.Decimal128, Precision: 38, Scale: 5}
	w204 := columnar.Type{ID: columnar.Decimal128, Precision: 20, Scale: 4}
	extremes := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 999999999999999999, -999999999999999999}
	narrow := func(tp columnar.Type) columnar.Value {
		if r.IntN(8) == 0 {
			return columnar.IntValue(tp, extremes[r.IntN(len(extremes))])
		}
		return columnar.IntValue(tp, r.Int64N(2e15)-1e15)
	}
	wide := func(tp columnar.Type) columnar.Value {
		n := new(big.Int).Rand(old, columnar.Pow10Big(int(tp.Precision)))
		if r.IntN(2) == 0 {
			n.Neg(n)
		}
		if r.IntN(8) == 0 { // at the edge of the range
			n = new(big.Int).Sub(columnar.Pow10Big(int(tp.Precision)), big.NewInt(int64(1+r.IntN(3))))
		}
		v, ok := columnar.WideFromBig(tp, n)
		if !ok {
			t.Fatalf("WideFromBig(%s, %s)", tp, n)
		}
		return v
	}
	unscaled := func(v columnar.Value) *big.Int {
		if v.Type.Wide() {
			return v.WideBig()
		}
		return big.NewInt(v.I)
	}
	cases := []struct {
		name string
		op   arithOp
		x, y func() columnar.Value
		t    columnar.Type
		fast bool // the shape is one the shortcut takes
	}{
		{"narrow*narrow", opMul, func() columnar.Value { return narrow(d152) }, func() columnar.Value { return narrow(d152) }, w304, true},
		{"narrow*narrow small result", opMul, func() columnar.Value { return narrow(d152) }, func() columnar.Value { return narrow(d152) }, w204, true},
		{"rescaled product", opMul, func() columnar.Value { return narrow(d152) }, func() columnar.Value { return narrow(d183) }, w304, false},
		{"wide-wide", opSub, func() columnar.Value { return wide(w385) }, func() columnar.Value { return wide(w385) }, w385, true},
		{"wide+wide", opAdd, func() columnar.Value { return wide(w304) }, func() columnar.Value { return wide(w304) }, w304, true},
		{"wide*narrow", opMul, func() columnar.Value { return wide(w204) }, func() columnar.Value { return narrow(d152) }, columnar.Type{ID: columnar.Decimal128, Precision: 38, Scale: 6}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			answered := 0
			for range 20000 {
				x, y := tc.x(), tc.y()
				var want *big.Int
				switch tc.op {
				case opMul:
					want = new(big.Int).Mul(unscaled(x), unscaled(y))
				case opAdd:
					want = new(big.Int).Add(unscaled(x), unscaled(y))
				case opSub:
					want = new(big.Int).Sub(unscaled(x), unscaled(y))
				}
				inRange := new(big.Int).Abs(want).Cmp(columnar.Pow10Big(int(tc.t.Precision))) < 0
				got, ok := wideArithFast(tc.op, x, y, tc.t)
				switch {
				case !tc.fast && ok:
					t.Fatalf("%s %s: answered a shape it should leave to math/big", x, y)
				case !tc.fast:
				case ok && !inRange:
					t.Fatalf("%s op %s: answered %s out of range (exact %s)", x, y, got, want)
				case ok && got.WideBig().Cmp(want) != 0:
					t.Fatalf("%s op %s = %s, exact %s", x, y, got.WideBig(), want)
				case !ok && inRange && (tc.op != opMul || (!x.Type.Wide() || x.Wide128().IsInt64()) && (!y.Type.Wide() || y.Wide128().IsInt64())):
					t.Fatalf("%s op %s: declined an in-range result %s", x, y, want)
				}
				if ok {
					answered++
				}
			}
			if tc.fast && answered == 0 {
				t.Fatal("the shortcut never answered")
			}
		})
	}
}
