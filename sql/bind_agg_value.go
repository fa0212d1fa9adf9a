package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// valueAggParam checks the arguments of the aggregates that return one of
// the group's values, of x's type: quantile_disc(x, q) orders x (numbers,
// dates, timestamps, intervals, strings) and returns q as a DOUBLE;
// mode(x) takes any x and no parameter.
func (b *binder) valueAggParam(fn planner.AggFunc, name string, x planner.Expr, args []callexpr.Expr,
	constant func(int) (columnar.Value, error), c ectx) (columnar.Value, error) {
	if fn == planner.AggMode {
		return columnar.Value{}, nil
	}
	if t := x.Type(); t.ID == columnar.Bool {
		return columnar.Value{}, b.typeErr(args[0], c, "%s(%s) is not supported: it needs an ordered type", name, t)
	}
	v, err := constant(1)
	if err != nil {
		return columnar.Value{}, err
	}
	q, ok := quantileFraction(v) // bind_agg_quantile.go
	if !ok {
		return columnar.Value{}, b.typeErr(args[1], c, "%s expects a fraction between -1 and 1", name)
	}
	return columnar.FloatValue(columnar.TFloat64, q), nil
}
