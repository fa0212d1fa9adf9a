package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The executor's part of the function registry (package function): each
// family file (func_string.go, …) registers its functions with the kernels
// that compute them, and NewCall builds a registered call from them.

// newRegisteredCall builds a call of a registered function from the
// overload for its arguments' types (function.Set.Choose); ok is false for a name the
// registry does not hold.
func newRegisteredCall(fn string, args []Expr, ret columnar.Type) (Expr, bool, error) {
	s, ok := function.Lookup(fn)
	// Only the canonical name: the binder resolves aliases, and an alias
	// may be another family's call name (len is also the list length).
	if !ok || s.Kind != function.Scalar || s.Name != fn {
		return nil, false, nil
	}
	ts := make([]columnar.Type, len(args))
	consts := make([]*columnar.Value, len(args))
	for i, a := range args {
		ts[i] = a.Type()
		if v, ok := ConstValue(a); ok {
			consts[i] = &v
		}
	}
	o, _ := s.Choose(ts) // the binder's overload (its arguments converted)
	if o == nil || o.Kernel == nil {
		return nil, true, errorf("%s takes %s arguments, got %d", fn, s.Arity(), len(args))
	}
	k, err := o.Kernel(ts, consts, ret)
	if err != nil {
		return nil, true, err
	}
	return &callExpr{name: fn, args: args, t: ret, k: kernel(k), strict: !o.SeesNulls, volatile: s.Stability == function.Volatile,
		vals: make([]*columnar.Vector, len(args)), out: columnar.Vector{Type: ret}}, true, nil
}

// fresh is a Factory for a kernel that holds per-call state (an arena):
// every call gets its own.
func fresh(k func() kernel) function.Factory {
	return func([]columnar.Type, []*columnar.Value, columnar.Type) (function.Kernel, error) {
		return function.Kernel(k()), nil
	}
}

// stateless is a Factory for a kernel without state, shared by every call.
func stateless(k kernel) function.Factory {
	return func([]columnar.Type, []*columnar.Value, columnar.Type) (function.Kernel, error) {
		return function.Kernel(k), nil
	}
}

// rows is a Factory for a function computed row by row (rowFunc); NULL
// rows of a strict overload are skipped, a SeesNulls overload's function
// sees them.
func rows(f rowFunc) function.Factory {
	return func(_ []columnar.Type, _ []*columnar.Value, ret columnar.Type) (function.Kernel, error) {
		return function.Kernel(rowKernel(f, ret, true)), nil
	}
}

// rowsT is rows for a function of dates: infinite DATE and TIMESTAMP
// arguments get DuckDB's answer for fn (call_infinity.go) first.
func rowsT(fn string, f rowFunc) function.Factory {
	return func(ts []columnar.Type, _ []*columnar.Value, ret columnar.Type) (function.Kernel, error) {
		return function.Kernel(rowKernel(guardInfinity(fn, f, ts), ret, true)), nil
	}
}

// rowsNulls is rows for an overload whose function handles NULLs itself.
func rowsNulls(f rowFunc) function.Factory {
	return func(_ []columnar.Type, _ []*columnar.Value, ret columnar.Type) (function.Kernel, error) {
		return function.Kernel(rowKernel(f, ret, false)), nil
	}
}

// param is one parameter of an overload: its name and conversion rule.
type param struct {
	name string
	arg  function.Arg
}

// over is an overload of the params, returning ret (SameAs when ret is
// the zero Type and sameAs > 0 is set on the result), computed by k.
func over(ret columnar.Type, k function.Factory, ps ...param) function.Overload {
	o := function.Overload{Returns: ret, Kernel: k}
	for _, p := range ps {
		o.Params = append(o.Params, p.name)
		o.Args = append(o.Args, p.arg)
	}
	return o
}

// scalar is a scalar function set of the category; aliases may follow
// with aka.
func scalar(category, name, description string, examples []string, os ...function.Overload) *function.Set {
	return &function.Set{Name: name, Categories: []string{category}, Description: description, Examples: examples, Overloads: os}
}

// aka sets the aliases of s.
func aka(s *function.Set, aliases ...string) *function.Set {
	s.Aliases = aliases
	return s
}

// customBind marks s as typed by the binder's own code (sql), not by the
// overloads' argument rules, which then only describe it.
func customBind(s *function.Set) *function.Set {
	s.CustomBind = true
	return s
}

// internal marks s as a call the binder makes itself, not a name users
// write.
func internal(s *function.Set) *function.Set {
	s.Internal = true
	return s
}

// sameAs sets the result of o to the type of its argument i (1-based).
func sameAs(o function.Overload, i int) function.Overload {
	o.SameAs = i
	return o
}

// byType is a Factory whose kernel depends on the first argument's type.
func byType(k func(t columnar.Type) kernel) function.Factory {
	return func(ts []columnar.Type, _ []*columnar.Value, _ columnar.Type) (function.Kernel, error) {
		return function.Kernel(k(ts[0])), nil
	}
}

func ex(calls ...string) []string { return calls }

// internalRows is an Internal set computed row by row: a call the binder
// makes itself (tz_local for a zone conversion, interval_of for INTERVAL
// (n) DAY, …), with one or more arguments of the types the binder gives.
func internalRows(category, name, description string, f rowFunc) *function.Set {
	return internal(scalar(category, name, description, nil,
		function.Overload{Args: []function.Arg{function.Any}, Variadic: true, Kernel: rowsT(name, f)}))
}
