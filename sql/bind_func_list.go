package sql

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// callFunc binds a call of the registered scalar function fn, typed by
// its rules (bind_func_call.go): the binder's own calls of list_value
// ([a, b]) and list_concat (l1 || l2).
func (b *binder) callFunc(fn string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	s, ok := function.Lookup(fn)
	if !ok {
		return nil, fmt.Errorf("internal error: %s is not registered", fn)
	}
	return b.callRegistered(s, fn, xs, srcs, at, c)
}

// listAggregate binds list_aggregate(l, name, args…): argument k is the
// constant name of an aggregate of the registry (any of its names), and
// the call is the registry's list form of that aggregate, list_<its
// name>, over the other arguments, typed by that set's rules
// (list_aggregate(l, 'mean') is list_avg(l), list_aggregate(l,
// 'group_concat', '-') is list_string_agg(l, '-')).
func (b *binder) listAggregate(name string, k int, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	kc, isConst := planner.FoldExpr(xs[k]).(*planner.Const)
	if !isConst {
		return nil, b.typeErr(srcs[k], c, "%s: the aggregate's name must be a constant", name)
	}
	aggName := "NULL"
	if !kc.Val.Null {
		aggName = kc.Val.S
	}
	agg, ok := function.Find(function.Aggregate, aggName)
	if !ok || kc.Val.Null {
		return nil, b.errAt(b.leafTok(srcs[k], c.sp), ErrUnknownFunction,
			fmt.Sprintf("aggregate function %q does not exist%s", aggName, didYouMean(aggName, function.Names(function.Aggregate))))
	}
	ls, ok := function.Lookup("list_" + agg.Name)
	if !ok {
		return nil, b.errAt(b.leafTok(srcs[k], c.sp), ErrUnsupported, fmt.Sprintf("%s of the aggregate %s is not supported", name, agg.Name))
	}
	rest := append(append([]planner.Expr(nil), xs[:k]...), xs[k+1:]...)
	restSrcs := append(append([]callexpr.Expr(nil), srcs[:k]...), srcs[k+1:]...)
	if ls.Overload(len(rest)) == nil {
		return nil, b.errAt(at, ErrType, fmt.Sprintf("%s of %s takes %s arguments besides the name", name, agg.Name, ls.Arity()))
	}
	if len(rest) > 0 && rest[0].Type().ID == columnar.Null {
		// A NULL of no type: NULL, typed NULL, whatever the aggregate.
		return &planner.Const{Val: columnar.NullValue(columnar.TNull)}, nil
	}
	return b.callRegistered(ls, name, rest, restSrcs, at, c)
}
