package ast

import "reflect"

var nodeType = reflect.TypeOf((*Node)(nil)).Elem()

// WalkAll calls f on n and on every node under it, nested queries
// included (unlike Inspect, which stays in one query's clauses), parents
// before children and children in field order. Only the set of nodes is
// promised, not text order: sort by Start where order matters. It reads
// the tree by reflection, as Equal does, so that a new node type is
// walked without a case here.
func WalkAll(n Node, f func(Node)) {
	if n == nil {
		return
	}
	walkAll(reflect.ValueOf(n), f)
}

func walkAll(v reflect.Value, f func(Node)) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walkAll(v.Elem(), f)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type().Implements(nodeType) {
			f(v.Interface().(Node))
		}
		walkAll(v.Elem(), f)
	case reflect.Slice:
		for i := range v.Len() {
			walkAll(v.Index(i), f)
		}
	case reflect.Struct:
		if v.Type() == spanType {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkAll(v.Field(i), f)
			}
		}
	}
}
