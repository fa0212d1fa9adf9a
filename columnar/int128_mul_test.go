package columnar

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestInt128Mul: Mul against math/big on operands of every size, the
// edges of the range among them; it answers exactly every product whose
// magnitude is below 2^127 and declines the others.
func TestInt128Mul(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	limit := new(big.Int).Lsh(big.NewInt(1), 127)
	edges := []Int128{{}, {Lo: 1}, {Hi: -1, Lo: ^uint64(0)}, {Hi: 1 << 62}, {Hi: -1 << 63}, {Hi: 1<<63 - 1, Lo: ^uint64(0)}, {Lo: 1 << 63}, {Hi: -1, Lo: 1 << 63}}
	operand := func() Int128 {
		switch r.IntN(4) {
		case 0:
			return edges[r.IntN(len(edges))]
		case 1:
			return Int128Of(r.Int64())
		case 2:
			return Int128{Hi: r.Int64N(1<<20) - 1<<19, Lo: r.Uint64()}
		}
		return Int128{Hi: int64(r.Uint64()), Lo: r.Uint64()}
	}
	for range 200000 {
		a, b := operand(), operand()
		want := new(big.Int).Mul(a.Big(), b.Big())
		got, ok := a.Mul(b)
		fits := new(big.Int).Abs(want).Cmp(limit) < 0
		switch {
		case ok && got.Big().Cmp(want) != 0:
			t.Fatalf("%v * %v = %v, want %v", a.Big(), b.Big(), got.Big(), want)
		case ok != fits && !(a == Int128{Hi: -1 << 63} || b == Int128{Hi: -1 << 63}):
			t.Fatalf("%v * %v: ok %v, exact %v", a.Big(), b.Big(), ok, want)
		case ok && !fits:
			t.Fatalf("%v * %v: answered out of range", a.Big(), b.Big())
		}
	}
}

// TestWithinDigits: |a| < 10^p at the boundary, both signs.
func TestWithinDigits(t *testing.T) {
	for p := 1; p <= MaxDecimal; p++ {
		top := Pow10Int128(p)
		below, _ := top.Sub(Int128{Lo: 1})
		negBelow, _ := below.Neg()
		negTop, _ := top.Neg()
		if !below.WithinDigits(p) || !negBelow.WithinDigits(p) || top.WithinDigits(p) || negTop.WithinDigits(p) {
			t.Fatalf("WithinDigits(%d) wrong at the boundary", p)
		}
	}
	if (Int128{Hi: -1 << 63}).WithinDigits(38) {
		t.Fatal("-2^127 within 38 digits")
	}
}
