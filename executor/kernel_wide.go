package executor

import (
	"encoding/binary"
	"math/big"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// Arithmetic where an operand or the result is 128 bits wide (HUGEINT,
// UHUGEINT, DECIMAL(19..38)): exact, through math/big, one row at a time.
// Operands may be integers or DECIMALs of any width and scale; the result
// is computed exactly, moved to the result type's scale (half away from
// zero) and checked against its range: "overflow in addition of
// DECIMAL(38,2)" as DuckDB reports it. A zero divisor of % and // gives
// NULL, as for narrower integers.

// isWideArith reports whether + - * % // over l and r giving ret need the
// 128-bit kernel.
func isWideArith(l, r, ret columnar.Type) bool { return l.Wide() || r.Wide() || ret.Wide() }

// exactNum reads a numeric value as an unscaled integer and its scale.
func exactNum(v columnar.Value) (*big.Int, int) {
	t := v.Type
	switch {
	case t.ID == columnar.Decimal128:
		return v.WideBig(), int(t.Scale)
	case t.Wide():
		return v.WideBig(), 0
	case t.ID == columnar.Decimal:
		return big.NewInt(v.I), int(t.Scale)
	case t.ID == columnar.Uint64:
		return new(big.Int).SetUint64(uint64(v.I)), 0
	}
	return big.NewInt(v.I), 0
}

var wideOpNames = map[arithOp]string{opAdd: "addition", opSub: "subtraction", opMul: "multiplication", opMod: "modulo", opIntDiv: "division"}

func wideArith(op arithOp) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		if v, ok := wideArithFast(op, a[0], a[1], t); ok { // kernel_wide_fast.go
			return v, nil
		}
		x, xs := exactNum(a[0])
		y, ys := exactNum(a[1])
		var r *big.Int
		s := max(xs, ys)
		switch op {
		case opMul:
			r, s = new(big.Int).Mul(x, y), xs+ys
			if t.ID == columnar.Hugeint && r.BitLen() > 127 {
				// DuckDB multiplies magnitudes below 2^127: −2^127 is an
				// overflow here, though subtraction reaches it.
				return columnar.Value{}, errorf("overflow in multiplication of %s", t)
			}
		default:
			x = columnar.RescaleBig(x, xs, s)
			y = columnar.RescaleBig(y, ys, s)
			switch op {
			case opAdd:
				r = new(big.Int).Add(x, y)
			case opSub:
				r = new(big.Int).Sub(x, y)
			case opMod:
				if y.Sign() == 0 {
					return columnar.NullValue(t), nil
				}
				r = new(big.Int).Rem(x, y) // the dividend's sign, as DuckDB
			case opIntDiv:
				if y.Sign() == 0 {
					return columnar.NullValue(t), nil
				}
				r, s = new(big.Int).Quo(x, y), 0
			default:
				return columnar.Value{}, errorf("unsupported operator on %s", t)
			}
		}
		return wideResult(r, s, t, wideOpNames[op])
	}
}

// wideResult stores unscaled r of scale s as type t, or reports overflow.
func wideResult(r *big.Int, s int, t columnar.Type, what string) (columnar.Value, error) {
	ts := 0
	if t.IsDecimal() {
		ts = int(t.Scale)
	}
	r = columnar.RescaleBig(r, s, ts)
	var v columnar.Value
	ok := false
	switch {
	case t.Wide():
		v, ok = columnar.WideFromBig(t, r)
	case t.ID == columnar.Decimal:
		ok = r.IsInt64() && new(big.Int).Abs(r).Cmp(columnar.Pow10Big(int(t.Precision))) < 0
		v = columnar.IntValue(t, r.Int64())
	case t.ID == columnar.Uint64:
		ok = r.Sign() >= 0 && r.IsUint64()
		v = columnar.UintValue(r.Uint64())
	case t.IsInteger():
		lo, hi := t.IntRange()
		ok = r.IsInt64() && r.Int64() >= lo && r.Int64() <= hi
		v = columnar.IntValue(t, r.Int64())
	}
	if !ok {
		return columnar.Value{}, errorf("overflow in %s of %s", what, t)
	}
	return v, nil
}

// wideNeg is -x of a HUGEINT or wide DECIMAL.
func wideNeg(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	x, s := exactNum(a[0])
	return wideResult(new(big.Int).Neg(x), s, t, "negation")
}

// SUM of a 128-bit column runs as four BIGINT sums of its 32-bit limbs
// (the binder's plan: sum(wide_limb(x, k)) for k = 0..3, then
// wide_sum(s0, s1, s2, s3)), so that it shares the fast, parallel,
// spilling int64 aggregation: each limb sum is exact for up to 2^31 rows
// per group, and the four recombine exactly.
//
//	wide_limb(HUGEINT|DECIMAL, k)  BIGINT  bits [32k, 32k+32) of the value; limb 3 signed
//	wide_limb(BIGINT, k)           BIGINT  the same with two limbs; limb 1 signed
//	wide_sum(BIGINT × n)           HUGEINT|DECIMAL(38,s)  Σ s_k · 2^(32k), overflow checked
//
// SUM of a BIGINT runs the same way with two limbs, so that it is exact
// past 2^63 as DuckDB's HUGEINT sum is.
func init() {
	function.Register(internalRows("math", "wide_sum", "Σ s_k · 2^(32k) of limb sums s_k, as HUGEINT or DECIMAL(38,s)", fnWideSum))
}

// int64Limb is limb k (0 or 1) of x: its low 32 bits, unsigned, or its
// high 32 bits with the sign.
func int64Limb(x int64, k int) int64 {
	if k == 0 {
		return int64(uint64(x) & 0xffffffff)
	}
	return x >> 32
}

// int64Limbs writes limb k of each src value to dst (len(dst) = len(src)).
func int64Limbs(src, dst []int64, k int) {
	dst = dst[:len(src)]
	if k == 0 {
		for i, x := range src {
			dst[i] = int64(uint64(x) & 0xffffffff)
		}
		return
	}
	for i, x := range src {
		dst[i] = x >> 32
	}
}

func wideLimbKernel(k int) kernel {
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x := args[0]
		n := b.Len
		if x.Const {
			n = 1
		}
		switch x.Type.Phys() {
		case columnar.PhysInt:
			if b.Sel == nil && !x.Const {
				// SUM(BIGINT) runs every row through here: a plain loop.
				int64Limbs(x.Ints[:n], out.Ints[:n], k)
				out.Const = false
				return nil
			}
			src, dst := x.Ints, out.Ints
			b.ForEach(func(i int) {
				if i < n {
					dst[i] = int64Limb(src[i], k)
				}
			})

			out.Const = x.Const
			return nil
		case columnar.PhysUint:
			src, dst := x.Uints, out.Ints
			b.ForEach(func(i int) {
				if i < n {
					dst[i] = int64(src[i] >> (32 * k) & 0xffffffff)
				}
			})

			out.Const = x.Const
			return nil
		}
		src, dst := x.Bytes, out.Ints
		if b.Sel == nil && !x.Const && x.Type.ID != columnar.Uhugeint {
			// SUM and AVG of a DECIMAL(38) column run every row through
			// here: the limb straight from the key's bytes.
			keyLimbs(src[:n], dst[:n], k)
			out.Const = false
			return nil
		}
		b.ForEach(func(i int) {
			if i >= n || len(src[i]) != 16 {
				return
			}
			v := columnar.Int128FromKey(src[i])
			switch k {
			case 0:
				dst[i] = int64(v.Lo & 0xffffffff)
			case 1:
				dst[i] = int64(v.Lo >> 32)
			case 2:
				dst[i] = int64(uint64(v.Hi) & 0xffffffff)
			default:
				dst[i] = v.Hi >> 32
			}
		})

		out.Const = x.Const
		return nil
	}
}

// fnWideSum recombines the limb sums. The SUM is checked against the
// 128-bit range only, not its DECIMAL(38,s) type's 38 digits: DuckDB's
// decimal SUM adds in a HUGEINT and stores it as is, so that sum(x) of two
// 6·10^37 gives the 39 digits 120000…0 typed DECIMAL(38,0); past 2^127 it
// reports an overflow.
// keyLimbs writes limb k of each signed 128-bit key (AppendInt128Key's
// big-endian bytes, sign bit flipped) to dst: limb 3 is the top 32 bits
// with the flip undone, sign-extended; the others are unsigned.
func keyLimbs(src [][]byte, dst []int64, k int) {
	at := 12 - 4*k
	for i, key := range src {
		if len(key) != 16 {
			dst[i] = 0
			continue
		}
		v := binary.BigEndian.Uint32(key[at:])
		if k == 3 {
			dst[i] = int64(int32(v ^ 1<<31))
		} else {
			dst[i] = int64(v)
		}
	}
}

func fnWideSum(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	r := new(big.Int)
	for k := len(a) - 1; k >= 0; k-- {
		r.Lsh(r, 32)
		r.Add(r, big.NewInt(a[k].I))
	}
	x, ok := columnar.Int128FromBig(r)
	if !ok {
		return columnar.Value{}, errorf("overflow in SUM of %s", t)
	}
	return columnar.WideValue(t, x), nil
}

// wideRounding is abs, floor, ceil, round (half away from zero) or trunc
// (toward zero), to an optional number of decimal digits, of a HUGEINT,
// UHUGEINT or wide DECIMAL; the
// result keeps the argument's scale (the binder narrows it, with a cast
// that checks the digits).
func wideRounding(fn string) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		x, s := exactNum(a[0])
		if fn == "abs" {
			return wideResult(new(big.Int).Abs(x), s, t, "absolute value")
		}
		digits := int64(0)
		if len(a) > 1 {
			digits = a[1].I
		}
		drop := int64(s) - digits // decimal digits to remove
		if drop <= 0 {
			return wideResult(x, s, t, fn)
		}
		if drop > 2*columnar.MaxDecimal {
			drop = 2 * columnar.MaxDecimal // past every digit either way
		}
		p := columnar.Pow10Big(int(drop))
		q, r := new(big.Int).QuoRem(x, p, new(big.Int))
		switch {
		case fn == "floor" && r.Sign() < 0, fn == "ceil" && r.Sign() > 0:
			q.Add(q, big.NewInt(int64(r.Sign())))
		case fn == "round" && new(big.Int).Lsh(new(big.Int).Abs(r), 1).Cmp(p) >= 0:
			q.Add(q, big.NewInt(int64(x.Sign())))
		}
		if t.ID == columnar.Decimal128 {
			// The carry may add a digit the argument's type lacks
			// (ceil(9…9.9::DECIMAL(38,1)) is 10^37): what must fit 38
			// digits is the value at the result's narrowed scale
			// (max(digits, 0)), which the binder's cast gives it;
			// round(9…9::DECIMAL(38,0), -1) = 10^38 does not (DuckDB's
			// tests: an error).
			final := new(big.Int).Mul(q, columnar.Pow10Big(int(max(-digits, 0))))
			if final.CmpAbs(columnar.Pow10Big(columnar.MaxDecimal)) >= 0 {
				return columnar.Value{}, errorf("overflow in %s of %s", fn, t)
			}
			if x, ok := columnar.Int128FromBig(q.Mul(q, p)); ok {
				return columnar.WideValue(t, x), nil
			}
		}
		return wideResult(q.Mul(q, p), s, t, fn)
	}
}
