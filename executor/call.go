package executor

import (
	"github.com/b2sql/b2sql/columnar"
)

// NewCall builds the expression for scalar function fn over args,
// returning type ret: a special form, or a function of the registry
// (package function, func.go), operators included (func_operator.go). The
// special forms are those that are not a kernel over evaluated arguments:
// AND and OR, IS [NOT] NULL, IN and COALESCE evaluate their arguments
// lazily or not at all (DuckDB's conjunction and operator expressions),
// TRY evaluates its argument again row by row when it fails,
// and the nested forms of newListForm read children of their argument.
// The kernel is chosen here, once.
func NewCall(fn string, args []Expr, ret columnar.Type) (Expr, error) {
	need := func(n int) error {
		if len(args) != n {
			return errorf("%s takes %d arguments, got %d", fn, n, len(args))
		}
		return nil
	}
	switch fn {
	case "and", "or":
		return &logicExpr{and: fn == "and", args: args}, nil
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
	case "try":
		if err := need(1); err != nil {
			return nil, err
		}
		return &tryExpr{x: args[0], t: ret}, nil
	}
	if e, ok, err := newListForm(fn, args, ret); ok { // call_list.go
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
