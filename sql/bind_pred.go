package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// logical binds AND, OR, NOT: BOOLEAN operands (NULL allowed).
func (b *binder) logical(fn string, c ectx, args ...sqlparser.Expr) (planner.Expr, error) {
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

// boolean checks that x is BOOLEAN (a NULL or 'true' literal converts).
func (b *binder) boolean(x planner.Expr, src sqlparser.Expr, c ectx, where string) (planner.Expr, error) {
	if x.Type().ID == columnar.Bool {
		return x, nil
	}
	if b.isLiteral(x) && (x.Type().ID == columnar.Null || x.Type().ID == columnar.Varchar) {
		return b.coerce(x, columnar.TBool, src, c)
	}
	return nil, b.typeErr(src, c, "%s expects BOOLEAN, got %s", where, x.Type())
}

var comparisonFns = map[string]string{
	"=": "=", "!=": "<>", "<>": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
	"like": "like", "not like": "not_like", "regexp": "ilike", "not regexp": "not_ilike",
	"in": "in", "not in": "not_in",
}

func (b *binder) bindComparison(e *sqlparser.ComparisonExpr, c ectx) (planner.Expr, error) {
	if e.Operator == sqlparser.NullSafeEqualStr {
		return b.bindDistinctFrom(e, c) // bind_distinct_from.go
	}
	fn, ok := comparisonFns[e.Operator]
	if !ok {
		return nil, b.errAt(b.leafTok(e.Right, c.sp), ErrUnsupported, fmt.Sprintf("operator %q is not supported", e.Operator))
	}
	if e.Escape != nil {
		// x [NOT] [I]LIKE p ESCAPE e is DuckDB's [not_][i]like_escape(x, p, e).
		name := map[string]string{"like": "like_escape", "not_like": "not_like_escape", "ilike": "ilike_escape", "not_ilike": "not_ilike_escape"}[fn]
		if name == "" {
			return nil, b.errAt(b.q.findKeyword("ESCAPE", c.sp), ErrSyntax, "ESCAPE is only valid after LIKE or ILIKE")
		}
		return b.bindFunc(&sqlparser.FuncExpr{Name: sqlparser.NewColIdent(name), Exprs: sqlparser.SelectExprs{
			&sqlparser.AliasedExpr{Expr: e.Left}, &sqlparser.AliasedExpr{Expr: e.Right}, &sqlparser.AliasedExpr{Expr: e.Escape}}}, c)
	}
	left, err := b.bindExpr(e.Left, c)
	if err != nil {
		return nil, err
	}
	if fn == "in" || fn == "not_in" {
		tuple, ok := e.Right.(sqlparser.ValTuple)
		if sq, isSub := e.Right.(*sqlparser.Subquery); isSub {
			return b.bindInMark(left, e, sq, fn == "not_in", c)
		}
		if !ok {
			return nil, b.errAt(b.subqueryTok(c.sp), ErrUnsupported, "this IN list is not supported")
		}
		if isEmptyIn(tuple) {
			return &planner.Const{Val: columnar.BoolValue(fn == "not_in")}, nil
		}
		xs := []planner.Expr{left}
		srcs := []sqlparser.Expr{e.Left}
		for _, v := range tuple {
			x, err := b.bindExpr(v, c)
			if err != nil {
				return nil, err
			}
			xs = append(xs, x)
			srcs = append(srcs, v)
		}
		return b.inList(fn, xs, srcs, c)
	}
	right, err := b.bindExpr(e.Right, c)
	if err != nil {
		return nil, err
	}
	if strings.Contains(fn, "like") {
		return b.like(fn, left, right, e.Left, e.Right, c)
	}
	return b.compare(fn, left, right, e.Left, e.Right, c)
}

// inList builds x [NOT] IN (list): xs is x then the list, srcs their
// syntax.
func (b *binder) inList(fn string, xs []planner.Expr, srcs []sqlparser.Expr, c ectx) (planner.Expr, error) {
	xs, _, err := b.unify(xs, srcs, c, true, "compare")
	if err != nil {
		return nil, err
	}
	return &planner.Call{Fn: fn, Args: xs, T: columnar.TBool}, nil
}

// like builds x [NOT] [I]LIKE pattern over VARCHAR operands.
func (b *binder) like(fn string, left, right planner.Expr, ls, rs sqlparser.Expr, c ectx) (planner.Expr, error) {
	l, err := b.coerce(left, columnar.TVarchar, ls, c)
	if err != nil {
		return nil, err
	}
	r, err := b.coerce(right, columnar.TVarchar, rs, c)
	if err != nil {
		return nil, err
	}
	for i, x := range []planner.Expr{left, right} {
		if t := x.Type(); t.ID != columnar.Varchar && t.ID != columnar.Null {
			src := []sqlparser.Expr{ls, rs}[i]
			return nil, b.typeErr(src, c, "%s expects VARCHAR, got %s", strings.ToUpper(strings.ReplaceAll(fn, "_", " ")), t)
		}
	}
	return &planner.Call{Fn: fn, Args: []planner.Expr{l, r}, T: columnar.TBool}, nil
}

// compare builds left op right after unifying the operand types.
func (b *binder) compare(fn string, left, right planner.Expr, ls, rs sqlparser.Expr, c ectx) (planner.Expr, error) {
	xs, _, err := b.unify([]planner.Expr{left, right}, []sqlparser.Expr{ls, rs}, c, true, "compare")
	if err != nil {
		return nil, err
	}
	return &planner.Call{Fn: fn, Args: xs, T: columnar.TBool}, nil
}

// bindBetween rewrites x BETWEEN a AND b as x >= a AND x <= b, and NOT
// BETWEEN as x < a OR x > b (equal under three-valued logic).
func (b *binder) bindBetween(e *sqlparser.RangeCond, c ectx) (planner.Expr, error) {
	x, err := b.bindExpr(e.Left, c)
	if err != nil {
		return nil, err
	}
	lo, err := b.bindExpr(e.From, c)
	if err != nil {
		return nil, err
	}
	hi, err := b.bindExpr(e.To, c)
	if err != nil {
		return nil, err
	}
	return b.between([]planner.Expr{x, lo, hi}, []sqlparser.Expr{e.Left, e.From, e.To}, e.Operator == sqlparser.NotBetweenStr, c)
}

// between builds xs[0] [NOT] BETWEEN xs[1] AND xs[2]; srcs are their
// syntax.
func (b *binder) between(xs []planner.Expr, srcs []sqlparser.Expr, not bool, c ectx) (planner.Expr, error) {
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

func (b *binder) bindIs(e *sqlparser.IsExpr, c ectx) (planner.Expr, error) {
	x, err := b.bindExpr(e.Expr, c)
	if err != nil {
		return nil, err
	}
	// vitess' operators read "is [not] null|true|false".
	op := strings.Fields(e.Operator)
	return b.isTest(x, strings.ToUpper(op[len(op)-1]), len(op) == 3, e.Expr, c)
}

// isTest builds x IS [NOT] what, what NULL, TRUE or FALSE.
func (b *binder) isTest(x planner.Expr, what string, not bool, src sqlparser.Expr, c ectx) (planner.Expr, error) {
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
