package executor

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestMagBits: the least b with |v| <= 2^b over the rows, by hand.
func TestMagBits(t *testing.T) {
	for _, c := range []struct {
		vals []int64
		want int
	}{
		{[]int64{0}, 0}, {[]int64{1}, 1}, {[]int64{-1}, 0}, {[]int64{-2}, 1}, {[]int64{2, 3}, 2},
		{[]int64{4, -4}, 3}, {[]int64{-(1 << 31)}, 31}, {[]int64{1<<31 - 1}, 31}, {[]int64{1 << 31}, 32},
		{[]int64{5, 0, math.MaxInt64}, 63}, {[]int64{math.MinInt64}, 63}, {[]int64{7, 1, 2}, 3},
	} {
		v := columnar.NewVector(columnar.TInt64, len(c.vals))
		copy(v.Ints, c.vals)
		if got := magBits(v, len(c.vals)); got != c.want {
			t.Errorf("magBits(%v) = %d, want %d", c.vals, got, c.want)
		}
	}
}

// TestIntMulBounds: products of BIGINT, INTEGER and DECIMAL(18,4) operands
// whose magnitudes straddle the bound where the unchecked loop is chosen
// (|x| <= 2^bx, |y| <= 2^by, 2^(bx+by) against the type's largest value)
// equal the exact products from math/big, and a batch with one product
// outside the type's range is an overflow error, whichever loop ran.
func TestIntMulBounds(t *testing.T) {
	const n = 64
	rng := rand.New(rand.NewPCG(1, 2))
	for _, typ := range []columnar.Type{columnar.TInt64, columnar.TInt32, columnar.DecimalType(18, 4)} {
		lo, hi := typ.IntRange()
		rlo, rhi := lo, hi // the result's range: DECIMAL(18, s) holds 18 digits
		if typ.ID == columnar.Decimal {
			rlo, rhi = -999_999_999_999_999_999, 999_999_999_999_999_999
		}
		for bx := 0; bx <= 63; bx += 3 {
			for _, by := range []int{0, 1, 30, 31, 32, 58 - bx, 59 - bx, 60 - bx, 61 - bx, 62 - bx, 63 - bx} {
				if by < 0 || by > 63 {
					continue
				}
				for _, shape := range []string{"vec*vec", "const*vec", "vec*const"} {
					x, y := mulOperand(rng, typ, bx, n, shape == "const*vec"), mulOperand(rng, typ, by, n, shape == "vec*const")
					fits := true
					want := make([]int64, n)
					for i := range n {
						p := new(big.Int).Mul(big.NewInt(x.Ints[idx(x, i)]), big.NewInt(y.Ints[idx(y, i)]))
						if !p.IsInt64() || p.Int64() < rlo || p.Int64() > rhi {
							fits = false
							break
						}
						want[i] = p.Int64()
					}
					out := columnar.NewVector(typ, n)
					err := intArith(opMul, typ, lo, hi, x, y, &columnar.Batch{Len: n}, out)
					where := fmt.Sprintf("%s bx=%d by=%d %s", typ, bx, by, shape)
					switch {
					case fits && err != nil:
						t.Fatalf("%s: %v", where, err)
					case !fits && err == nil:
						t.Fatalf("%s: no overflow error", where)
					case fits:
						for i := range n {
							if out.Ints[i] != want[i] {
								t.Fatalf("%s: row %d = %d, want %d", where, i, out.Ints[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}

// mulOperand is n values of typ of magnitude up to 2^b (clipped to the
// type), the first ±2^b itself; one value when constant.
func mulOperand(rng *rand.Rand, typ columnar.Type, b, n int, constant bool) *columnar.Vector {
	lo, hi := typ.IntRange()
	if constant {
		n = 1
	}
	v := columnar.NewVector(typ, n)
	v.Const = constant
	for i := range n {
		var m uint64 = math.MaxUint64
		if b < 64 {
			m = 1<<uint(b) - 1
		}
		x := int64(rng.Uint64() & m)
		if i == 0 {
			x = int64(uint64(1) << uint(min(b, 63)))
		}
		if rng.IntN(2) == 0 {
			x = -x
		}
		v.Ints[i] = min(max(x, lo), hi)
	}
	return v
}
