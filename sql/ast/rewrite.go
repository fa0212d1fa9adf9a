package ast

import "reflect"

var (
	exprType  = reflect.TypeOf((*Expr)(nil)).Elem()
	queryType = reflect.TypeOf((*Query)(nil))
)

// Rewrite returns a copy of e in which each expression for which f
// returns (r, true) is r, not entered further. f is asked about e and
// then, parents first, about every expression in an Expr-typed place
// (a field or list element of type Expr) of one query's clauses: nested
// queries are not entered (they are shared with e, not copied). The copy
// shares no other node with e, so binding it cannot change e. It reads
// the tree by reflection, as WalkAll does.
func Rewrite(e Expr, f func(Expr) (Expr, bool)) Expr {
	if e == nil {
		return nil
	}
	if r, ok := f(e); ok {
		return r
	}
	return rewrite(reflect.ValueOf(e), f).Interface().(Expr)
}

func rewrite(v reflect.Value, f func(Expr) (Expr, bool)) reflect.Value {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		if v.Type() == exprType {
			if r, ok := f(v.Interface().(Expr)); ok {
				if r != nil {
					out.Set(reflect.ValueOf(r))
				}
				return out
			}
		}
		out.Set(rewrite(v.Elem(), f))
		return out
	case reflect.Pointer:
		if v.IsNil() || v.Type() == queryType {
			return v
		}
		cp := reflect.New(v.Type().Elem())
		cp.Elem().Set(rewrite(v.Elem(), f))
		return cp
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(rewrite(v.Index(i), f))
		}
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		if v.Type() == spanType {
			return out
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out.Field(i).Set(rewrite(v.Field(i), f))
			}
		}
		return out
	}
	return v
}
