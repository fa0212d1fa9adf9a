package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
)

// Lambda functions (DuckDB 1.5's names): list_transform(l, x -> e) and
// list_transform(l, (x, i) -> e) map each element (i its 1-based
// position), list_filter keeps the elements the lambda is true for, and
// list_reduce(l, (acc, x[, i]) -> e[, initial]) folds the list from the
// left, starting from initial or the first element. A lambda's
// parameters shadow columns of the same name; any other column it reads
// is the row's (planner.Lambda).

// lambdaFuncs maps the names a user writes to the function they bind.
var lambdaFuncs = map[string]string{
	"list_transform": "list_transform", "array_transform": "list_transform", "apply": "list_transform",
	"list_apply": "list_transform", "array_apply": "list_transform",
	"list_filter": "list_filter", "array_filter": "list_filter", "filter": "list_filter",
	"list_reduce": "list_reduce", "array_reduce": "list_reduce", "reduce": "list_reduce",
}

// lambdaCallBindable reports whether a lambda function's call binds from
// the syntax tree.
func lambdaCallBindable(e *ast.Func) bool {
	if len(e.Args) < 2 || len(e.Args) > 3 || e.Distinct || e.Star {
		return false
	}
	l, ok := e.Args[1].(*ast.Lambda)
	if !ok || !astBindable(e.Args[0]) || !astBindable(l.Body) {
		return false
	}
	return len(e.Args) == 2 || astBindable(e.Args[2])
}

// bindLambdaCall binds a call of a lambda function fn.
func (b *binder) bindLambdaCall(fn string, e *ast.Func, c ectx) (planner.Expr, error) {
	name := strings.ToLower(e.Name[0].Name)
	at := b.q.tokAt(e.Start)
	lam := e.Args[1].(*ast.Lambda)
	if fn != "list_reduce" && len(e.Args) != 2 {
		return nil, b.arity(at, name, "2")
	}
	l, err := b.bindAST(e.Args[0], c)
	if err != nil {
		return nil, err
	}
	if t := l.Type(); t.ID == columnar.Null || t.ID == columnar.List && t.Elem().ID == columnar.Null {
		if l, err = b.coerce(l, columnar.ListOf(columnar.TInt32), astSrc(e.Args[0]), c); err != nil {
			return nil, err
		}
	}
	if l.Type().ID != columnar.List {
		return nil, b.typeErr(astSrc(e.Args[0]), c, "%s expects a list, got %s", name, l.Type())
	}
	elem := l.Type().Elem()
	want := []int{1, 2}
	types := []columnar.Type{elem, columnar.TInt64}
	acc := elem
	var init planner.Expr
	if fn == "list_reduce" {
		want = []int{2, 3}
		if len(e.Args) == 3 {
			if init, err = b.bindAST(e.Args[2], c); err != nil {
				return nil, err
			}
			t, ok := superType(init.Type(), elem)
			if !ok {
				return nil, b.typeErr(astSrc(e.Args[2]), c, "list_reduce: cannot combine an initial value of type %s with elements of type %s", init.Type(), elem)
			}
			acc = t
			if init, err = b.coerce(init, acc, astSrc(e.Args[2]), c); err != nil {
				return nil, err
			}
		}
		types = []columnar.Type{acc, elem, columnar.TInt64}
	}
	if len(lam.Params) < want[0] || len(lam.Params) > want[1] {
		return nil, b.errAt(b.q.tokAt(lam.Start), ErrType, fmt.Sprintf("%s expects a lambda with %d or %d parameters, got %d", name, want[0], want[1], len(lam.Params)))
	}
	x, err := b.bindLambda(lam, types[:len(lam.Params)], c)
	if err != nil {
		return nil, err
	}
	args := []planner.Expr{l, x}
	t := l.Type()
	switch fn {
	case "list_transform":
		t = columnar.ListOf(x.Body.Type())
		if x.Body.Type().ID == columnar.Null {
			x.Body = &planner.Const{Val: columnar.NullValue(columnar.TInt32)}
			t = columnar.ListOf(columnar.TInt32)
		}
	case "list_filter":
		if x.Body, err = b.boolean(x.Body, astSrc(lam.Body), c, name); err != nil {
			return nil, err
		}
	case "list_reduce":
		if x.Body, err = b.coerce(x.Body, acc, astSrc(lam.Body), c); err != nil {
			return nil, err
		}
		t = acc
		if init != nil {
			args = append(args, init)
		}
	}
	return &planner.Call{Fn: fn, Args: args, T: t}, nil
}

// bindLambda binds a lambda's body with its parameters of the given types
// in scope, ahead of (and hiding) columns of the same names.
func (b *binder) bindLambda(lam *ast.Lambda, types []columnar.Type, c ectx) (*planner.Lambda, error) {
	old := b.scope
	defer func() { b.scope = old }()
	params := make([]planner.Column, len(lam.Params))
	scope := make([]planner.Column, 0, len(old)+len(params))
	for i, p := range lam.Params {
		params[i] = b.newCol(p.Name, "", types[i])
		scope = append(scope, params[i])
	}
	for _, col := range old {
		shadowed := false
		for _, p := range lam.Params {
			shadowed = shadowed || strings.EqualFold(p.Name, col.Name)
		}
		if !shadowed {
			scope = append(scope, col)
		}
	}
	b.scope = scope
	body, err := b.bindAST(lam.Body, c)
	if err != nil {
		return nil, err
	}
	return &planner.Lambda{Params: params, Body: body}, nil
}
