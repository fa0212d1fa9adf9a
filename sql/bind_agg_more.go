package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// Aggregates defined in terms of the executor's (count, sum, min, max),
// by rewriting the call's parse tree and binding the result:
//
//	var_samp(x)   (sum(x²) - sum(x)²/n) / (n - 1)   NULL for n < 2
//	var_pop(x)    (sum(x²) - sum(x)²/n) / n
//	stddev_*(x)   sqrt of the variance (clamped at 0 against rounding)
//	bool_and(x)   min(x), bool_or(x) max(x), over BOOLEAN
//	count(DISTINCT a, b, …)  distinct rows with no NULL (as MySQL)
//
// x is computed in DOUBLE. The one-pass variance loses precision when the
// mean is large against the spread.
var aggRewrites = map[string]bool{
	"stddev": true, "stddev_samp": true, "stddev_pop": true, "variance": true, "var_samp": true, "var_pop": true,
	"bool_and": true, "bool_or": true,
}

func fn(name string, distinct bool, args ...sqlparser.Expr) *sqlparser.FuncExpr {
	f := &sqlparser.FuncExpr{Name: sqlparser.NewColIdent(name), Distinct: distinct}
	for _, a := range args {
		f.Exprs = append(f.Exprs, &sqlparser.AliasedExpr{Expr: a})
	}
	return f
}

func bin(op string, l, r sqlparser.Expr) sqlparser.Expr {
	return &sqlparser.BinaryExpr{Operator: op, Left: &sqlparser.ParenExpr{Expr: l}, Right: &sqlparser.ParenExpr{Expr: r}}
}

// bindAggRewrite binds the aggregates above; ok is false for other calls.
func (b *binder) bindAggRewrite(name string, e *sqlparser.FuncExpr, args []sqlparser.Expr, star bool, at int, c ectx) (planner.Expr, bool, error) {
	if name == "count" && e.Distinct && len(args) > 1 {
		var key []sqlparser.Expr
		var anyNull sqlparser.Expr
		for _, a := range args {
			key = append(key, fn("length", false, fn("concat", false, a)), sqlparser.NewStrVal([]byte(":")), a)
			isNull := &sqlparser.IsExpr{Operator: sqlparser.IsNullStr, Expr: a}
			if anyNull == nil {
				anyNull = isNull
			} else {
				anyNull = &sqlparser.OrExpr{Left: anyNull, Right: isNull}
			}
		}
		ce := &sqlparser.CaseExpr{Whens: []*sqlparser.When{{Cond: anyNull, Val: &sqlparser.NullVal{}}}, Else: fn("concat", false, key...)}
		x, err := b.bindExpr(fn("count", true, ce), c)
		return x, true, err
	}
	if !aggRewrites[name] {
		return nil, false, nil
	}
	if star || len(args) != 1 || e.Distinct {
		return nil, true, b.arity(at, name, "1")
	}
	a := args[0]
	if strings.HasPrefix(name, "bool_") {
		agg := "min"
		if name == "bool_or" {
			agg = "max"
		}
		x, err := b.bindExpr(fn(agg, false, a), c)
		if err == nil && x.Type().ID != columnar.Bool {
			return nil, true, b.typeErr(a, c, "%s expects BOOLEAN, got %s", name, x.Type())
		}
		return x, true, err
	}
	xf := bin("+", a, sqlparser.NewFloatVal([]byte("0e0")))
	s1 := fn("sum", false, xf)
	s2 := fn("sum", false, bin("*", xf, xf))
	n := fn("count", false, a)
	dev := bin("-", s2, bin("/", bin("*", s1, s1), n))
	var v sqlparser.Expr
	if strings.HasSuffix(name, "_pop") {
		v = bin("/", dev, n)
	} else {
		v = bin("/", dev, bin("-", n, sqlparser.NewIntVal([]byte("1"))))
	}
	if strings.HasPrefix(name, "stddev") {
		clamp := &sqlparser.CaseExpr{Whens: []*sqlparser.When{{Cond: &sqlparser.ComparisonExpr{Operator: "<", Left: v, Right: sqlparser.NewIntVal([]byte("0"))}, Val: sqlparser.NewFloatVal([]byte("0e0"))}}, Else: v}
		v = fn("sqrt", false, clamp)
	}
	x, err := b.bindExpr(v, c)
	return x, true, err
}
