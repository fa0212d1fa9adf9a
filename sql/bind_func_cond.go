package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindCondFunc binds the functions that need their argument expressions
// rather than bound values: if(c, a, b), which is CASE WHEN c THEN a ELSE
// b END (so it types and short-circuits as CASE does), and typeof(x),
// the name of x's type as a constant. ok is false for other names.
func (b *binder) bindCondFunc(name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	switch name {
	case "if":
		if len(args) != 3 {
			return nil, true, b.arity(at, name, "3")
		}
		x, err := b.bindCase(&callexpr.CaseExpr{At: b.q.tokExtent(at), Whens: []*callexpr.When{{Cond: args[0], Val: args[1]}}, Else: args[2]}, c)
		return x, true, err
	case "typeof", "pg_typeof":
		if len(args) != 1 {
			return nil, true, b.arity(at, name, "1")
		}
		x, err := b.bindExpr(args[0], c)
		if err != nil {
			return nil, true, err
		}
		t := typeName(x.Type())
		if name == "pg_typeof" { // DuckDB's macro: lower(typeof(x))
			t = strings.ToLower(t)
		}
		return &planner.Const{Val: columnar.StringValue(t)}, true, nil
	}
	return nil, false, nil
}

// typeName is DuckDB's typeof text: the SQL spelling, and "NULL" in double
// quotes for the type of an untyped NULL.
func typeName(t columnar.Type) string {
	if t.ID == columnar.Null {
		return `"NULL"`
	}
	return t.String()
}

// bindCoalesce binds coalesce, ifnull and nullif over arguments unified to
// one type.
func (b *binder) bindCoalesce(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	n := len(xs)
	call := func(fn string, t columnar.Type, args ...planner.Expr) planner.Expr {
		return &planner.Call{Fn: fn, Args: args, T: t}
	}
	switch name {
	case "coalesce", "ifnull":
		if n == 0 || (name == "ifnull" && n != 2) {
			return nil, true, b.arity(at, name, "1 or more")
		}
		args, t, err := b.unify(xs, srcs, c, false, "mix")
		if err != nil {
			return nil, true, err
		}
		return call("coalesce", t, args...), true, nil
	case "nullif":
		if n != 2 {
			return nil, true, b.arity(at, name, "2")
		}
		args, t, err := b.unify(xs, srcs, c, true, "compare")
		if err != nil {
			return nil, true, err
		}
		return call("nullif", t, args...), true, nil
	}
	return nil, false, nil
}
