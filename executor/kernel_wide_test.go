package executor

import (
	"math"
	"math/big"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestInt64Limbs: the selection-free loop and the per-row path agree, and
// the two limbs recombine to the value (lo + hi·2^32, hi signed).
func TestInt64Limbs(t *testing.T) {
	xs := []int64{0, 1, -1, 42, -42, math.MaxInt64, math.MinInt64, 1 << 32, -(1 << 32), 0xffffffff, -0xffffffff, 123456789012345}
	x := &columnar.Vector{Type: columnar.TInt64, Ints: xs}
	for _, sel := range [][]int{nil, {0, 3, 5, 6, 11}} {
		b := &columnar.Batch{Len: len(xs), Sel: sel}
		var limbs [2][]int64
		for k := range limbs {
			out := &columnar.Vector{Type: columnar.TInt64, Ints: make([]int64, len(xs))}
			if err := wideLimbKernel(k)([]*columnar.Vector{x}, b, out); err != nil {
				t.Fatal(err)
			}
			limbs[k] = out.Ints
		}
		rows := sel
		if rows == nil {
			rows = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
		}
		for _, i := range rows {
			lo, hi := limbs[0][i], limbs[1][i]
			if lo < 0 || lo > 0xffffffff {
				t.Errorf("sel=%v: limb 0 of %d = %d, outside [0, 2^32)", sel, xs[i], lo)
			}
			got := new(big.Int).Lsh(big.NewInt(hi), 32)
			got.Add(got, big.NewInt(lo))
			if !got.IsInt64() || got.Int64() != xs[i] {
				t.Errorf("sel=%v: limbs of %d = (%d, %d), recombined %s", sel, xs[i], lo, hi, got)
			}
		}
	}
}

// TestWideLimbs: the 128-bit limbs, from the selection-free loop over the
// keys and from the per-row path, recombine to the value (limb 3 signed).
func TestWideLimbs(t *testing.T) {
	vals := []columnar.Int128{{}, {Lo: 1}, {Hi: -1, Lo: ^uint64(0)}, {Hi: -1 << 63}, {Hi: 1<<63 - 1, Lo: ^uint64(0)}, {Hi: 12345, Lo: 0xdeadbeefcafef00d}, {Hi: -98765, Lo: 42}}
	tp := columnar.Type{ID: columnar.Decimal128, Precision: 38, Scale: 3}
	x := &columnar.Vector{Type: tp, Bytes: make([][]byte, len(vals))}
	for i, v := range vals {
		x.Bytes[i] = columnar.AppendInt128Key(nil, v)
	}
	for _, sel := range [][]int{nil, {0, 2, 3, 6}} {
		b := &columnar.Batch{Len: len(vals), Sel: sel}
		var limbs [4][]int64
		for k := range limbs {
			out := &columnar.Vector{Type: columnar.TInt64, Ints: make([]int64, len(vals))}
			if err := wideLimbKernel(k)([]*columnar.Vector{x}, b, out); err != nil {
				t.Fatal(err)
			}
			limbs[k] = out.Ints
		}
		b.ForEach(func(i int) {
			got := big.NewInt(limbs[3][i])
			for k := 2; k >= 0; k-- {
				got.Lsh(got, 32).Add(got, big.NewInt(limbs[k][i]))
			}
			if got.Cmp(vals[i].Big()) != 0 {
				t.Errorf("sel=%v: limbs of %s recombine to %s", sel, vals[i].Big(), got)
			}
		})

	}
}
