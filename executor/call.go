package executor

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// NewCall builds the expression for scalar function fn over args,
// returning type ret: an operator or special form of planner/functions.go,
// a list function, or a function of the registry (package function,
// func.go). The kernel is chosen here, once.
func NewCall(fn string, args []Expr, ret columnar.Type) (Expr, error) {
	strict := func(k kernel) (Expr, error) {
		return &callExpr{name: fn, args: args, t: ret, k: k, strict: true, vals: make([]*columnar.Vector, len(args)), out: columnar.Vector{Type: ret}}, nil
	}
	need := func(n int) error {
		if len(args) != n {
			return errorf("%s takes %d arguments, got %d", fn, n, len(args))
		}
		return nil
	}
	argType := func(i int) columnar.Type { return args[i].Type() }
	switch fn {
	case "and", "or":
		return &logicExpr{and: fn == "and", args: args}, nil
	case "not":
		if err := need(1); err != nil {
			return nil, err
		}
		return strict(notKernel)
	case "is_null", "is_not_null":
		if err := need(1); err != nil {
			return nil, err
		}
		return &isNullExpr{arg: args[0], not: fn == "is_not_null"}, nil
	case "in", "not_in":
		if len(args) < 2 {
			return nil, errorf("%s needs a list", fn)
		}
		return newInExpr(args[0], args[1:], fn == "not_in"), nil
	case "coalesce":
		return &coalesceExpr{args: args, t: ret}, nil
	case "=", "<>", "<", "<=", ">", ">=":
		if err := need(2); err != nil {
			return nil, err
		}
		if argType(0).Phys() != argType(1).Phys() {
			return nil, errorf("cannot compare %s with %s", argType(0), argType(1))
		}
		return strict(cmpKernel(cmpOps[fn], argType(0)))
	case "+", "-", "*", "/", "//", "%":
		if err := need(2); err != nil {
			return nil, err
		}
		l, r := argType(0), argType(1)
		if l.IsTemporal() || r.IsTemporal() || l.ID == columnar.Interval || r.ID == columnar.Interval || l.ID == columnar.Time || r.ID == columnar.Time {
			k, err := temporalArithKernel(arithOps[fn], l, r, ret)
			if err != nil {
				return nil, err
			}
			return strict(k)
		}
		if isWideArith(l, r, ret) { // kernel_wide.go
			return strict(rowKernel(wideArith(arithOps[fn]), ret, true))
		}
		if l.Phys() != r.Phys() {
			return nil, errorf("cannot apply %s to %s and %s", fn, l, r)
		}
		kt := l
		if ret.ID == columnar.Decimal {
			// A decimal product's scale is the sum of its operands'; the
			// kernel multiplies the scaled integers and reports overflow
			// in the result type.
			kt = ret
		}
		k, err := arithKernel(arithOps[fn], kt)
		if err != nil {
			return nil, err
		}
		return strict(k)
	case "wide_limb":
		k, ok := args[1].(*constExpr)
		if !ok || need(2) != nil {
			return nil, errorf("wide_limb takes a value and a constant limb number")
		}
		return strict(wideLimbKernel(int(k.val.I)))
	case "neg":
		if argType(0).Wide() {
			return strict(rowKernel(wideNeg, ret, true))
		}
		return strict(negKernel(argType(0)))
	case "like", "not_like", "ilike", "not_ilike":
		return strict(likeKernel(strings.Contains(fn, "ilike"), strings.HasPrefix(fn, "not_")))
	case "||":
		return strict(concatKernel(true))
	}
	if e, ok, err := newListCall(fn, args, ret); ok { // call_list.go
		return e, err
	}
	if err := checkStrptimeFormat(fn, args); err != nil {
		return nil, err
	}
	if e, ok, err := newRegisteredCall(fn, args, ret); ok { // func.go
		return e, err
	}
	return nil, errorf("unknown function %q", fn)
}

// NewCase builds a searched CASE; els may be nil (ELSE NULL).
func NewCase(conds, thens []Expr, els Expr, t columnar.Type) Expr {
	return &caseExpr{conds: conds, thens: thens, els: els, t: t, codes: newCaseCodes(thens, els, t)}
}

// NewCast builds a cast of arg to type to; try turns failures into NULL.
func NewCast(arg Expr, to columnar.Type, try bool) Expr { return newCastExpr(arg, to, try) }
