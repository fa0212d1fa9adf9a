package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// logical binds AND, OR, NOT: BOOLEAN operands (NULL allowed).
func (b *binder) logical(fn string, c ectx, args ...callexpr.Expr) (planner.Expr, error) {
	out := make([]planner.Expr, len(args))
	for i, a := range args {
		x, err := b.bindExpr(a, c)
		if err != nil {
			return nil, err
		}
		if x, err = b.boolean(x, a, c, strings.ToUpper(fn)); err != nil {
			return nil, err
		}
		out[i] = x
	}
	return &planner.Call{Fn: fn, Args: out, T: columnar.TBool}, nil
}

// boolean makes x a condition: BOOLEAN as it is; a NULL or 'true'
// literal converts; a number or a string is cast to BOOLEAN, as DuckDB
// casts every condition (WHERE i keeps the rows where i <> 0, WHERE s
// those where s reads true, an unreadable s fails); other types are
// refused.
func (b *binder) boolean(x planner.Expr, src callexpr.Expr, c ectx, where string) (planner.Expr, error) {
	t := x.Type()
	if t.ID == columnar.Bool {
		return x, nil
	}
	if b.isLiteral(x) && (t.ID == columnar.Null || t.ID == columnar.Varchar) {
		return b.coerce(x, columnar.TBool, src, c)
	}
	if (t.IsNumeric() || t.ID == columnar.Varchar) && canCast(t, columnar.TBool) {
		return b.castTo(x, src, columnar.TBool, false, c)
	}
	return nil, b.typeErr(src, c, "%s expects BOOLEAN, got %s", where, t)
}

var comparisonFns = map[string]string{
	"=": "=", "!=": "<>", "<>": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"like": "like", "not like": "not_like", "regexp": "ilike", "not regexp": "not_ilike",
	"in": "in", "not in": "not_in",
}

// inList builds x [NOT] IN (list): xs is x then the list, srcs their
// syntax.
func (b *binder) inList(fn string, xs []planner.Expr, srcs []callexpr.Expr, c ectx) (planner.Expr, error) {
	xs, _, err := b.unify(xs, srcs, c, true, "compare")
	if err != nil {
		return nil, err
	}
	return &planner.Call{Fn: fn, Args: xs, T: columnar.TBool}, nil
}

// like builds x [NOT] [I]LIKE pattern over VARCHAR operands.
func (b *binder) like(fn string, left, right planner.Expr, ls, rs callexpr.Expr, c ectx) (planner.Expr, error) {
	l, err := b.coerce(left, columnar.TVarchar, ls, c)
	if err != nil {
		return nil, err
	}
	r, err := b.coerce(right, columnar.TVarchar, rs, c)
	if err != nil {
		return nil, err
	}
	for i, x := range []planner.Expr{left, right} {
		if t := x.Type(); t.ID != columnar.Varchar && t.ID != columnar.Null && t.ID != columnar.Enum {
			src := []callexpr.Expr{ls, rs}[i]
			return nil, b.typeErr(src, c, "%s expects VARCHAR, got %s", strings.ToUpper(strings.ReplaceAll(fn, "_", " ")), t)
		}
	}
	return &planner.Call{Fn: fn, Args: []planner.Expr{l, r}, T: columnar.TBool}, nil
}

// compare builds left op right after unifying the operand types.
func (b *binder) compare(fn string, left, right planner.Expr, ls, rs callexpr.Expr, c ectx) (planner.Expr, error) {
	xs, _, err := b.unify([]planner.Expr{left, right}, []callexpr.Expr{ls, rs}, c, true, "compare")
	if err != nil {
		return nil, err
	}
	return &planner.Call{Fn: fn, Args: xs, T: columnar.TBool}, nil
}

// between builds xs[0] [NOT] BETWEEN xs[1] AND xs[2]; srcs are their
// syntax.
func (b *binder) between(xs []planner.Expr, srcs []callexpr.Expr, not bool, c ectx) (planner.Expr, error) {
	xs, _, err := b.unify(xs, srcs, c, true, "compare")
	if err != nil {
		return nil, err
	}
	geq, leq, join := ">=", "<=", "and"
	if not {
		geq, leq, join = "<", ">", "or"
	}
	return &planner.Call{Fn: join, T: columnar.TBool, Args: []planner.Expr{
		&planner.Call{Fn: geq, Args: []planner.Expr{xs[0], xs[1]}, T: columnar.TBool},
		&planner.Call{Fn: leq, Args: []planner.Expr{xs[0], xs[2]}, T: columnar.TBool},
	}}, nil
}

func (b *binder) bindIs(e *callexpr.IsExpr, c ectx) (planner.Expr, error) {
	x, err := b.bindExpr(e.Expr, c)
	if err != nil {
		return nil, err
	}
	// callexpr's operators read "is [not] null|true|false".
	op := strings.Fields(e.Operator)
	return b.isTest(x, strings.ToUpper(op[len(op)-1]), len(op) == 3, e.Expr, c)
}

// isTest builds x IS [NOT] what, what NULL, TRUE or FALSE.
func (b *binder) isTest(x planner.Expr, what string, not bool, src callexpr.Expr, c ectx) (planner.Expr, error) {
	if what == "NULL" {
		fn := "is_null"
		if not {
			fn = "is_not_null"
		}
		return &planner.Call{Fn: fn, Args: []planner.Expr{x}, T: columnar.TBool}, nil
	}
	// x IS [NOT] TRUE|FALSE: never NULL, so COALESCE the test with FALSE.
	x, err := b.boolean(x, src, c, "IS")
	if err != nil {
		return nil, err
	}
	if what == "FALSE" {
		x = &planner.Call{Fn: "not", Args: []planner.Expr{x}, T: columnar.TBool}
	}
	var out planner.Expr = &planner.Call{Fn: "coalesce", Args: []planner.Expr{x, &planner.Const{Val: columnar.BoolValue(false)}}, T: columnar.TBool}
	if not {
		out = &planner.Call{Fn: "not", Args: []planner.Expr{out}, T: columnar.TBool}
	}
	return out, nil
}
