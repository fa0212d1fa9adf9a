package executor

import (
	"math"
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
)

var arithOps = map[string]arithOp{"+": opAdd, "-": opSub, "*": opMul, "/": opDiv, "//": opIntDiv, "%": opMod}

var arithNames = [...]string{"addition", "subtraction", "multiplication", "division", "division", "modulo"}
var arithSyms = [...]string{"+", "-", "*", "/", "//", "%"}

// arithKernel returns the kernel for a op b with both args of type t.
func arithKernel(op arithOp, t columnar.Type) (kernel, error) {
	switch t.Phys() {
	case columnar.PhysFloat:
		return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
			return floatArith(op, args[0], args[1], b, out)
		}, nil
	case columnar.PhysInt:
		lo, hi := t.IntRange()
		return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
			return intArith(op, t, lo, hi, args[0], args[1], b, out)
		}, nil
	case columnar.PhysUint:
		return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
			return uintArith(op, args[0], args[1], b, out)
		}, nil
	}
	return nil, errorf("no arithmetic on %s", t)
}

// forRows calls fn for each live row index; used where per-row work
// dominates the loop overhead anyway (overflow checks, NULL outputs).
func forRows(b *columnar.Batch, fn func(i int) error) error {
	if b.Sel == nil {
		for i := 0; i < b.Len; i++ {
			if err := fn(i); err != nil {
				return err
			}
		}
		return nil
	}
	for _, i := range b.Sel {
		if err := fn(i); err != nil {
			return err
		}
	}
	return nil
}

func idx(v *columnar.Vector, i int) int {
	if v.Const {
		return 0
	}
	return i
}

func floatArith(op arithOp, x, y *columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	a, c, r := x.Floats, y.Floats, out.Floats
	// Fast paths for the shapes that dominate: vector op vector, vector op
	// const. / has no NULL results (by zero it is ±inf or nan), so it
	// takes them too.
	if !x.Const && b.Sel == nil && (op <= opMul || op == opDiv) {
		n := b.Len
		a, r = a[:n], r[:n]
		if y.Const {
			k := c[0]
			switch op {
			case opAdd:
				for i := range a {
					r[i] = a[i] + k
				}
			case opSub:
				for i := range a {
					r[i] = a[i] - k
				}
			case opMul:
				for i := range a {
					r[i] = a[i] * k
				}
			case opDiv:
				for i := range a {
					r[i] = a[i] / k
				}
			}
			return nil
		}
		c = c[:n]
		switch op {
		case opAdd:
			for i := range a {
				r[i] = a[i] + c[i]
			}
		case opSub:
			for i := range a {
				r[i] = a[i] - c[i]
			}
		case opMul:
			for i := range a {
				r[i] = a[i] * c[i]
			}
		case opDiv:
			for i := range a {
				r[i] = a[i] / c[i]
			}
		}
		return nil
	}
	n := b.Len
	return forRows(b, func(i int) error {
		p, q := a[idx(x, i)], c[idx(y, i)]
		switch op {
		case opAdd:
			r[i] = p + q
		case opSub:
			r[i] = p - q
		case opMul:
			r[i] = p * q
		case opDiv:
			r[i] = p / q // by zero: ±inf, or nan for 0/0 (DuckDB's 1/0)
		case opIntDiv:
			// DuckDB's // of floats divides without truncating, and gives
			// NULL (not inf) for a zero divisor.
			if q == 0 {
				out.SetNull(i, n)
				return nil
			}
			r[i] = p / q
		case opMod:
			r[i] = math.Mod(p, q) // nan for a zero divisor, as DuckDB
		}
		return nil
	})
}

// overflow reports a result out of t's range. A DECIMAL's operands are
// scaled integers, meaningless to the user, so its message says what to do
// instead.
func overflow(op arithOp, t columnar.Type, p, q any) error {
	if t.ID == columnar.Decimal {
		return errorf("overflow in %s of %s: %s", arithNames[op], t, decimalAdvice)
	}
	return errorf("overflow in %s of %s (%v %s %v)", arithNames[op], t, p, arithSyms[op], q)
}

// decimalAdvice ends DECIMAL overflow errors: b2sql's DECIMAL is a 64-bit
// integer (DuckDB widens to 128 bits past 18 digits).
const decimalAdvice = "the result needs more than 18 digits, the most a b2sql DECIMAL holds; CAST an operand to DOUBLE"

func intArith(op arithOp, t columnar.Type, lo, hi int64, x, y *columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	a, c, r := x.Ints, y.Ints, out.Ints
	n := b.Len
	// wide: the operands may wrap int64 (BIGINT, DECIMAL), so overflow is
	// detected on the operation itself; [lo, hi] is the result's range,
	// for DECIMAL(p, s) its p digits (DuckDB's check).
	wide := lo == math.MinInt64
	if t.ID == columnar.Decimal && t.Precision > 0 && t.Precision <= 18 {
		hi = pow10[t.Precision] - 1
		lo = -hi
	}
	if op <= opMul && b.Sel == nil && out.Valid == nil && !(x.Const && y.Const) && intArithFast(op, wide, lo, hi, x, y, n, r) {
		return nil
	}
	// The per-row loop: selections, NULLs, division, and finding the row
	// that overflowed for the error message.
	return forRows(b, func(i int) error {
		if !out.Valid.Get(i) {
			return nil // NULL input: the slot is garbage, skip checks
		}
		p, q := a[idx(x, i)], c[idx(y, i)]
		var v int64
		switch op {
		case opAdd:
			v = p + q
			if wide && (v > p) != (q > 0) {
				return overflow(op, t, p, q)
			}
		case opSub:
			v = p - q
			if wide && (v < p) != (q > 0) {
				return overflow(op, t, p, q)
			}
		case opMul:
			v = p * q
			if wide && p != 0 && (v/p != q || (p == -1 && q == math.MinInt64)) {
				return overflow(op, t, p, q)
			}
		case opIntDiv, opMod:
			if q == 0 {
				out.SetNull(i, n)
				return nil
			}
			if q == -1 && p == lo && t.IsSigned() {
				// DuckDB reports the smallest value // -1 (and % -1,
				// whose division overflows the same way) as an overflow.
				return overflow(op, t, p, q)
			}
			if op == opIntDiv {
				v = p / q
			} else {
				v = p % q
			}
		default:
			return errorf("integer %s is not defined", arithNames[op])
		}
		if v < lo || v > hi {
			return overflow(op, t, p, q)
		}
		r[i] = v
		return nil
	})
}

func uintArith(op arithOp, x, y *columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	a, c, r := x.Uints, y.Uints, out.Uints
	n := b.Len
	t := columnar.TUint64
	return forRows(b, func(i int) error {
		if !out.Valid.Get(i) {
			return nil
		}
		p, q := a[idx(x, i)], c[idx(y, i)]
		switch op {
		case opAdd:
			v, carry := bits.Add64(p, q, 0)
			if carry != 0 {
				return overflow(op, t, p, q)
			}
			r[i] = v
		case opSub:
			if q > p {
				return overflow(op, t, p, q)
			}
			r[i] = p - q
		case opMul:
			h, l := bits.Mul64(p, q)
			if h != 0 {
				return overflow(op, t, p, q)
			}
			r[i] = l
		case opIntDiv, opMod:
			if q == 0 {
				out.SetNull(i, n)
				return nil
			}
			if op == opIntDiv {
				r[i] = p / q
			} else {
				r[i] = p % q
			}
		default:
			return errorf("integer %s is not defined", arithNames[op])
		}
		return nil
	})
}

// negKernel negates a numeric value.
func negKernel(t columnar.Type) kernel {
	lo, _ := t.IntRange()
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		x := args[0]
		switch t.Phys() {
		case columnar.PhysFloat:
			return forRows(b, func(i int) error { out.Floats[i] = -x.Floats[idx(x, i)]; return nil })
		case columnar.PhysInt:
			return forRows(b, func(i int) error {
				v := x.Ints[idx(x, i)]
				if v == lo && out.Valid.Get(i) && t.IsSigned() {
					return errorf("overflow in negation of %s (%d)", t, v)
				}
				out.Ints[i] = -v
				return nil
			})
		case columnar.PhysBytes:
			if t.ID != columnar.Interval {
				break
			}
			return forRows(b, func(i int) error {
				if out.Valid != nil && !out.Valid.Get(i) {
					return nil
				}
				iv := x.IntervalAt(idx(x, i))
				if iv.Months == math.MinInt32 || iv.Days == math.MinInt32 || iv.Micros == math.MinInt64 {
					return errorf("overflow in negation of INTERVAL %s", columnar.AppendInterval(nil, iv))
				}
				out.SetInterval(i, columnar.IntervalParts{Months: -iv.Months, Days: -iv.Days, Micros: -iv.Micros})
				return nil
			})
		}
		return errorf("cannot negate %s", t)
	}
}
