package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
)

// Small expression builders the decorrelations share.

func and(a, b planner.Expr) planner.Expr {
	return &planner.Call{Fn: "and", Args: []planner.Expr{a, b}, T: columnar.TBool}
}

// zeroValue is a non-NULL value of type t (any one: it stands in for NULL
// in a join key that carries a separate NULL flag).
func zeroValue(t columnar.Type) (columnar.Value, bool) {
	if t.ID == columnar.List {
		return columnar.Value{Type: t}, true // the empty list
	}
	switch t.Phys() {
	case columnar.PhysInt, columnar.PhysUint:
		return columnar.IntValue(t, 0), true
	case columnar.PhysFloat:
		return columnar.FloatValue(t, 0), true
	case columnar.PhysBytes:
		return columnar.Value{Type: t}, true
	case columnar.PhysBool:
		v := columnar.BoolValue(false)
		v.Type = t
		return v, true
	}
	return columnar.Value{}, false
}

// sameValue is x IS NOT DISTINCT FROM y as conjuncts a hash join can use
// as keys: coalesce(x, zero) = coalesce(y, zero) and x IS NULL = y IS
// NULL; for types without a zero value, one CASE (a residual condition).
func sameValue(x, y planner.Expr) []planner.Expr {
	boolT := columnar.TBool
	isNull := func(e planner.Expr) planner.Expr {
		return &planner.Call{Fn: "is_null", Args: []planner.Expr{e}, T: boolT}
	}
	eq := func(a, c planner.Expr) planner.Expr {
		return &planner.Call{Fn: "=", Args: []planner.Expr{a, c}, T: boolT}
	}
	if zero, ok := zeroValue(x.Type()); ok {
		co := func(e planner.Expr) planner.Expr {
			return &planner.Call{Fn: "coalesce", Args: []planner.Expr{e, &planner.Const{Val: zero}}, T: e.Type()}
		}
		return []planner.Expr{eq(co(x), co(y)), eq(isNull(x), isNull(y))}
	}
	xn, yn := isNull(x), isNull(y)
	return []planner.Expr{&planner.Case{
		Whens: []planner.When{{Cond: or(xn, yn), Then: and(xn, yn)}},
		Else:  eq(x, y), T: boolT,
	}}
}

func or(a, c planner.Expr) planner.Expr {
	return &planner.Call{Fn: "or", Args: []planner.Expr{a, c}, T: columnar.TBool}
}

// nullSafeKeys are join keys matching x and y NULL-safely (sameValue's
// two equalities); ok is false for a type without a zero value, where
// the one key x = y is returned (NULL never matches).
func nullSafeKeys(x, y planner.Expr) ([]planner.EquiKey, bool) {
	var keys []planner.EquiKey
	for _, eq := range sameValue(x, y) {
		call, ok := eq.(*planner.Call)
		if !ok || call.Fn != "=" {
			return []planner.EquiKey{{L: x, R: y}}, false
		}
		keys = append(keys, planner.EquiKey{L: call.Args[0], R: call.Args[1]})
	}
	return keys, true
}
