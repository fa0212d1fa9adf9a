package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bitstringAggArgs types bitstring_agg(x [, min, max]) as DuckDB 1.5.6
// binds it: x an integer of any width (NULL as INTEGER), min and max
// constant integers cast to x's type, returned as the call's Param, the
// LIST [min, max]. Without them Param stays unset and Build takes the
// range from x's statistics (planner/bitstring_agg.go); a NULL min or max
// is that too, as in DuckDB. ac is the context the arguments bind in.
func (b *binder) bitstringAggArgs(name string, x planner.Expr, args []callexpr.Expr, ac, c ectx) (planner.Expr, columnar.Value, error) {
	t := x.Type()
	switch {
	case t.ID == columnar.Null:
		x, t = &planner.Const{Val: columnar.NullValue(columnar.TInt32)}, columnar.TInt32
	case !t.IsInteger() && t.ID != columnar.Hugeint && t.ID != columnar.Uhugeint:
		return nil, columnar.Value{}, b.typeErr(args[0], c, "%s expects an integer, got %s", name, t)
	}
	if len(args) != 3 {
		if len(args) != 1 {
			return nil, columnar.Value{}, b.typeErr(args[0], c, "%s takes 1 or 3 arguments (x, min, max), got %d", name, len(args))
		}
		return x, columnar.Value{}, nil
	}
	bounds := make([]columnar.Value, 2)
	for i := range bounds {
		y, err := b.bindExpr(args[i+1], ac)
		if err != nil {
			return nil, columnar.Value{}, err
		}
		k, ok := planner.FoldExpr(y).(*planner.Const)
		if !ok {
			return nil, columnar.Value{}, b.typeErr(args[i+1], c, "%s requires a constant min and max argument", name)
		}
		if kt := k.Val.Type; !kt.IsInteger() && kt.ID != columnar.Hugeint && kt.ID != columnar.Uhugeint && kt.ID != columnar.Null {
			return nil, columnar.Value{}, b.typeErr(args[i+1], c, "%s expects an integer min and max, got %s", name, kt)
		}
		if k.Val.Null {
			return x, columnar.Value{}, nil
		}
		v, _, err := castConst(k.Val, t)
		if err != nil {
			return nil, columnar.Value{}, b.typeErr(args[i+1], c, "%s: %s does not fit %s", name, k.Val, t)
		}
		bounds[i] = v
	}
	return x, columnar.Value{Type: columnar.ListOf(t), Elems: bounds}, nil
}
