package executor

import (
	"github.com/b2sql/b2sql/columnar"
)

var cmpOps = map[string]cmpOp{"=": opEq, "<>": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}

// flip returns the operator with its operands swapped (a < b  ⇔  b > a).
func (o cmpOp) flip() cmpOp {
	switch o {
	case opLt:
		return opGt
	case opLe:
		return opGe
	case opGt:
		return opLt
	case opGe:
		return opLe
	}
	return o
}

type intLike interface{ ~int64 | ~uint64 }

// cmpKernel returns the kernel for a comparison of two args of type t.
func cmpKernel(op cmpOp, t columnar.Type) kernel {
	var codes codeMatch        // dictionary-coded input vs a constant: truth table per dictionary
	var da, dc columnar.Vector // coded input vs anything else: decoded here
	return func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
		a, c := args[0], args[1]
		o := op
		if a.Const && !c.Const {
			a, c, o = c, a, op.flip()
		}
		n := b.Len
		res := out.Bools[:n]
		if a.Const { // both constant: one row
			n = 1
			res = out.Bools[:1]
		}
		switch t.Phys() {
		case columnar.PhysInt:
			if c.Const {
				cmpVC(o, a.Ints[:n], c.Ints[0], res, b.Sel)
			} else {
				cmpVV(o, a.Ints[:n], c.Ints[:n], res, b.Sel)
			}
		case columnar.PhysUint:
			if c.Const {
				cmpVC(o, a.Uints[:n], c.Uints[0], res, b.Sel)
			} else {
				cmpVV(o, a.Uints[:n], c.Uints[:n], res, b.Sel)
			}
		case columnar.PhysFloat:
			if c.Const {
				cmpFloatVC(o, a.Floats[:n], c.Floats[0], res, b.Sel)
			} else {
				cmpFloatVV(o, a.Floats[:n], c.Floats[:n], res, b.Sel)
			}
		case columnar.PhysBool:
			ai, ci := boolsAsInts(a, n), boolsAsInts(c, n)
			if c.Const {
				cmpVC(o, ai, ci[0], res, b.Sel)
			} else {
				cmpVV(o, ai, ci, res, b.Sel)
			}
		case columnar.PhysBytes:
			if a.Dict != nil && c.Const {
				cmpCodesVC(&codes, o, a, c.Bytes[0], n, res, b.Sel)
				break
			}
			a, c = decodeLive(a, b, &da), decodeLive(c, b, &dc)
			if t.ID == columnar.Interval {
				cmpIntervals(o, a, c, res, b.Sel)
				break
			}
			if c.Const {
				cmpBytesVC(o, a.Bytes[:n], c.Bytes[0], res, b.Sel)
			} else {
				cmpBytesVV(o, a.Bytes[:n], c.Bytes[:n], res, b.Sel)
			}
		case columnar.PhysNested:
			cmpNested(o, a, c, res, b, n) // kernel_cmp_nested.go
		default:
			return errorf("cannot compare %s values", t)
		}
		return nil
	}
}

func boolsAsInts(v *columnar.Vector, n int) []int64 {
	if v.Const {
		n = 1
	}
	out := make([]int64, n)
	for i, x := range v.Bools[:n] {
		if x {
			out[i] = 1
		}
	}
	return out
}

func cmpVV[T intLike](op cmpOp, a, b []T, out []bool, sel []int) {
	b = b[:len(a)]
	out = out[:len(a)]
	if sel == nil {
		switch op {
		case opEq:
			for i := range a {
				out[i] = a[i] == b[i]
			}
		case opNe:
			for i := range a {
				out[i] = a[i] != b[i]
			}
		case opLt:
			for i := range a {
				out[i] = a[i] < b[i]
			}
		case opLe:
			for i := range a {
				out[i] = a[i] <= b[i]
			}
		case opGt:
			for i := range a {
				out[i] = a[i] > b[i]
			}
		case opGe:
			for i := range a {
				out[i] = a[i] >= b[i]
			}
		}
		return
	}
	for _, i := range sel {
		var r bool
		switch op {
		case opEq:
			r = a[i] == b[i]
		case opNe:
			r = a[i] != b[i]
		case opLt:
			r = a[i] < b[i]
		case opLe:
			r = a[i] <= b[i]
		case opGt:
			r = a[i] > b[i]
		case opGe:
			r = a[i] >= b[i]
		}
		out[i] = r
	}
}

func cmpVC[T intLike](op cmpOp, a []T, c T, out []bool, sel []int) {
	out = out[:len(a)]
	if sel == nil {
		switch op {
		case opEq:
			for i, x := range a {
				out[i] = x == c
			}
		case opNe:
			for i, x := range a {
				out[i] = x != c
			}
		case opLt:
			for i, x := range a {
				out[i] = x < c
			}
		case opLe:
			for i, x := range a {
				out[i] = x <= c
			}
		case opGt:
			for i, x := range a {
				out[i] = x > c
			}
		case opGe:
			for i, x := range a {
				out[i] = x >= c
			}
		}
		return
	}
	for _, i := range sel {
		x := a[i]
		var r bool
		switch op {
		case opEq:
			r = x == c
		case opNe:
			r = x != c
		case opLt:
			r = x < c
		case opLe:
			r = x <= c
		case opGt:
			r = x > c
		case opGe:
			r = x >= c
		}
		out[i] = r
	}
}

// Float comparisons follow DuckDB: NaN equals NaN and is greater than every
// other value, so that ORDER BY, GROUP BY and WHERE agree.
func floatCmp(op cmpOp, x, c float64) bool {
	switch op {
	case opEq:
		return x == c || (x != x && c != c)
	case opNe:
		return !(x == c || (x != x && c != c))
	case opLt:
		return x < c || (c != c && x == x)
	case opLe:
		return x <= c || c != c
	case opGt:
		return x > c || (x != x && c == c)
	}
	return x >= c || x != x
}

func cmpFloatVC(op cmpOp, a []float64, c float64, out []bool, sel []int) {
	out = out[:len(a)]
	if c == c { // c is not NaN: plain IEEE comparisons are right except for NaN x
		if sel == nil {
			switch op {
			case opEq:
				for i, x := range a {
					out[i] = x == c
				}
				return
			case opNe:
				for i, x := range a {
					out[i] = x != c
				}
				return
			case opLt:
				for i, x := range a {
					out[i] = x < c
				}
				return
			case opLe:
				for i, x := range a {
					out[i] = x <= c
				}
				return
			case opGt:
				for i, x := range a {
					out[i] = x > c || x != x
				}
				return
			case opGe:
				for i, x := range a {
					out[i] = x >= c || x != x
				}
				return
			}
		}
	}
	if sel == nil {
		for i, x := range a {
			out[i] = floatCmp(op, x, c)
		}
		return
	}
	for _, i := range sel {
		out[i] = floatCmp(op, a[i], c)
	}
}

func cmpFloatVV(op cmpOp, a, b []float64, out []bool, sel []int) {
	b = b[:len(a)]
	out = out[:len(a)]
	if sel == nil {
		for i := range a {
			out[i] = floatCmp(op, a[i], b[i])
		}
		return
	}
	for _, i := range sel {
		out[i] = floatCmp(op, a[i], b[i])
	}
}

func cmpBytesVC(op cmpOp, a [][]byte, c []byte, out []bool, sel []int) {
	out = out[:len(a)]
	if sel == nil {
		for i, x := range a {
			out[i] = bytesCmp(op, x, c)
		}
		return
	}
	for _, i := range sel {
		out[i] = bytesCmp(op, a[i], c)
	}
}

func cmpBytesVV(op cmpOp, a, b [][]byte, out []bool, sel []int) {
	b = b[:len(a)]
	out = out[:len(a)]
	if sel == nil {
		for i := range a {
			out[i] = bytesCmp(op, a[i], b[i])
		}
		return
	}
	for _, i := range sel {
		out[i] = bytesCmp(op, a[i], b[i])
	}
}

// cmpIntervals compares INTERVALs by their normalized prefix only, so
// that '1 month' = '30 days' (their written forms differ).
func cmpIntervals(op cmpOp, a, c *columnar.Vector, out []bool, sel []int) {
	key := columnar.IntervalOrderKey
	at := func(v *columnar.Vector, i int) []byte {
		if v.Const {
			return key(v.Bytes[0])
		}
		return key(v.Bytes[i])
	}
	if sel == nil {
		for i := range out {
			out[i] = bytesCmp(op, at(a, i), at(c, i))
		}
		return
	}
	for _, i := range sel {
		out[i] = bytesCmp(op, at(a, i), at(c, i))
	}
}
