package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The executor's part of the function registry (package function): each
// family file (func_string.go, …) registers its functions with the kernels
// that compute them, and NewCall builds a registered call from them.

// newRegisteredCall builds a call of a registered function from the
// overload taking len(args) arguments; ok is false for a name the
// registry does not hold.
func newRegisteredCall(fn string, args []Expr, ret columnar.Type) (Expr, bool, error) {
	s, ok := function.Lookup(fn)
	// Only the canonical name: the binder resolves aliases, and an alias
	// may be another family's call name (len is also the list length).
	if !ok || s.Kind != function.Scalar || s.Name != fn {
		return nil, false, nil
	}
	o := s.Overload(len(args))
	if o == nil || o.Kernel == nil {
		return nil, true, errorf("%s takes %s arguments, got %d", fn, s.Arity(), len(args))
	}
	ts := make([]columnar.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	k, err := o.Kernel(ts, ret)
	if err != nil {
		return nil, true, err
	}
	return &callExpr{name: fn, args: args, t: ret, k: kernel(k), strict: !o.SeesNulls,
		vals: make([]*columnar.Vector, len(args)), out: columnar.Vector{Type: ret}}, true, nil
}

// fresh is a Factory for a kernel that holds per-call state (an arena):
// every call gets its own.
func fresh(k func() kernel) function.Factory {
	return func([]columnar.Type, columnar.Type) (function.Kernel, error) { return function.Kernel(k()), nil }
}

// stateless is a Factory for a kernel without state, shared by every call.
func stateless(k kernel) function.Factory {
	return func([]columnar.Type, columnar.Type) (function.Kernel, error) { return function.Kernel(k), nil }
}

// rows is a Factory for a function computed row by row (rowFunc); NULL
// rows of a strict overload are skipped, a SeesNulls overload's function
// sees them.
func rows(f rowFunc) function.Factory {
	return func(_ []columnar.Type, ret columnar.Type) (function.Kernel, error) {
		return function.Kernel(rowKernel(f, ret, true)), nil
	}
}

// rowsNulls is rows for an overload whose function handles NULLs itself.
func rowsNulls(f rowFunc) function.Factory {
	return func(_ []columnar.Type, ret columnar.Type) (function.Kernel, error) {
		return function.Kernel(rowKernel(f, ret, false)), nil
	}
}
