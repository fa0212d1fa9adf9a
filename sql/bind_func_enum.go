package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bindEnumFunc types the ENUM functions (executor/func_enum.go): their
// arguments must be ENUMs (for enum_range_boundary, one ENUM type or
// NULL), as DuckDB requires; enum_code returns the type's code width.
func (b *binder) bindEnumFunc(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	want := 1
	if name == "enum_range_boundary" {
		want = 2
	}
	if len(xs) != want {
		return nil, false, nil // the registry's arity error
	}
	var t columnar.Type
	for i, x := range xs {
		xt := x.Type()
		switch {
		case xt.ID == columnar.Null && want == 2:
			continue
		case xt.ID != columnar.Enum:
			return nil, true, b.typeErr(srcs[i], c, "%s needs an ENUM as argument, got %s", name, xt)
		case t.ID == columnar.Enum && xt != t:
			return nil, true, b.typeErr(srcs[i], c, "%s needs its arguments of one ENUM type, got %s and %s", name, t, xt)
		}
		t = xt
	}
	if t.ID != columnar.Enum {
		return nil, true, b.errAt(at, ErrType, name+" needs an ENUM as argument, got NULL")
	}
	args := make([]planner.Expr, len(xs))
	for i, x := range xs {
		args[i] = x
		if x.Type().ID == columnar.Null {
			args[i] = &planner.Const{Val: columnar.NullValue(t)}
		}
	}
	ret := columnar.ListOf(columnar.TVarchar)
	switch name {
	case "enum_first", "enum_last":
		ret = columnar.TVarchar
	case "enum_code":
		ret = t.EnumCodeType()
	}
	return &planner.Call{Fn: name, Args: args, T: ret}, true, nil
}
