package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The operators the binder types as calls (a = b, a + b, -a, NOT a,
// a LIKE b, a || b), registered as Internal functions so that NewCall
// builds them from the registry as it builds the named functions. Their
// kernels are chosen by the operand types: comparisons and arithmetic by
// physical type, temporal and 128-bit arithmetic by their own kernels.
func init() {
	two := []function.Arg{function.Any, function.Any}
	op := func(name, description string, k function.Factory) *function.Set {
		return internal(scalar("operator", name, description, nil, function.Overload{Args: two, Kernel: k}))
	}
	for name, c := range cmpOps {
		function.Register(op(name, "a "+name+" b", cmpFactory(name, c)))
	}
	for name, a := range arithOps {
		function.Register(op(name, "a "+name+" b", arithFactory(name, a)))
	}
	unary := func(name, description string, k function.Factory) *function.Set {
		return internal(scalar("operator", name, description, nil, function.Overload{Args: two[:1], Kernel: k}))
	}
	function.Register(
		unary("not", "NOT a", stateless(notKernel)),
		unary("neg", "-a within a's type", func(ts []columnar.Type, _ []*columnar.Value, ret columnar.Type) (function.Kernel, error) {
			if ts[0].Wide() {
				return function.Kernel(rowKernel(wideNeg, ret, true)), nil
			}
			return function.Kernel(negKernel(ts[0])), nil
		}),
		op("like", "a LIKE b", fresh(func() kernel { return likeKernel(false, false) })),
		op("not_like", "a NOT LIKE b", fresh(func() kernel { return likeKernel(false, true) })),
		op("ilike", "a ILIKE b", fresh(func() kernel { return likeKernel(true, false) })),
		op("not_ilike", "a NOT ILIKE b", fresh(func() kernel { return likeKernel(true, true) })),
		op("||", "a || b: NULL when either is", fresh(func() kernel { return concatKernel(true) })),
		op("wide_limb", "limb k (a constant) of a 128-bit value, for exact sums", func(_ []columnar.Type, consts []*columnar.Value, _ columnar.Type) (function.Kernel, error) {
			if consts[1] == nil {
				return nil, errorf("wide_limb takes a value and a constant limb number")
			}
			return function.Kernel(wideLimbKernel(int(consts[1].I))), nil
		}),
	)
}

// cmpFactory chooses a comparison's kernel by its operands' physical type,
// which the binder has made equal.
func cmpFactory(name string, op cmpOp) function.Factory {
	return func(ts []columnar.Type, _ []*columnar.Value, _ columnar.Type) (function.Kernel, error) {
		if ts[0].Phys() != ts[1].Phys() {
			return nil, errorf("cannot compare %s with %s", ts[0], ts[1])
		}
		return function.Kernel(cmpKernel(op, ts[0])), nil
	}
}

// arithFactory chooses an arithmetic kernel: temporal operands (DATE,
// TIMESTAMP, TIME, INTERVAL), 128-bit values (kernel_wide.go), or
// operands of one physical type; a DECIMAL result's kernel works in the
// result type, whose scale a product's is the sum of its operands'.
func arithFactory(name string, op arithOp) function.Factory {
	return func(ts []columnar.Type, _ []*columnar.Value, ret columnar.Type) (function.Kernel, error) {
		l, r := ts[0], ts[1]
		if l.IsTemporal() || r.IsTemporal() || l.ID == columnar.Interval || r.ID == columnar.Interval || l.ID == columnar.Time || r.ID == columnar.Time {
			k, err := temporalArithKernel(op, l, r, ret)
			return function.Kernel(k), err
		}
		if isWideArith(l, r, ret) {
			return function.Kernel(wideArithKernel(op, l, r, ret)), nil
		}
		if l.Phys() != r.Phys() {
			return nil, errorf("cannot apply %s to %s and %s", name, l, r)
		}
		kt := l
		if ret.ID == columnar.Decimal {
			kt = ret
		}
		k, err := arithKernel(op, kt)
		return function.Kernel(k), err
	}
}
