package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// setOpSuper is the type a column of a set operation (UNION, INTERSECT,
// EXCEPT, by position or BY NAME) takes when its two sides' types have no
// common type: VARCHAR when either is VARCHAR and the other casts to it,
// element by element inside LISTs, MAPs and STRUCTs, as DuckDB does
// (SELECT 1 UNION ALL SELECT 'a' is VARCHAR; [1] and ['a'] make VARCHAR[]),
// and the number when the other is a BOOLEAN.
// Comparisons, CASE and COALESCE keep the stricter superType.
func setOpSuper(a, b columnar.Type) (columnar.Type, bool) {
	if t, ok := superType(a, b); ok {
		return t, true
	}
	switch {
	case a.ID == columnar.Varchar && canCast(b, a):
		return a, true
	case b.ID == columnar.Varchar && canCast(a, b):
		return b, true
	case a.ID == columnar.Bool && isNum(b):
		return b, true // SELECT true UNION ALL SELECT 1.5 is DECIMAL(2,1)
	case b.ID == columnar.Bool && isNum(a):
		return a, true
	case a.IsNested() && b.IsNested():
		return nestedSuperBy(a, b, setOpSuper)
	}
	return columnar.Type{}, false
}

// unifySetOp casts the two sides' values of a set operation's column to
// their common type: unify's, else setOpSuper's (err is unify's error
// when neither has one).
func (b *binder) unifySetOp(xs []planner.Expr, c ectx) ([]planner.Expr, columnar.Type, error) {
	out, t, err := b.unify(xs, nil, c, false, "combine")
	if err == nil {
		return out, t, nil
	}
	st, ok := setOpSuper(xs[0].Type(), xs[1].Type())
	if !ok {
		return nil, t, err
	}
	out = make([]planner.Expr, len(xs))
	for i, x := range xs {
		out[i] = x
		if x.Type() != st {
			out[i] = &planner.Cast{Arg: x, To: st}
		}
	}
	return out, st, nil
}
