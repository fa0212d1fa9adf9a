package b2sql

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/b2sql/b2sql/columnar"
)

// Nested parameters, the inverse of Scan's nested destinations: a slice
// or array (other than []byte) is a LIST, a map with string keys a STRUCT
// whose fields are the keys in sorted order (a Go map has no order), any
// other map a MAP sorted by key. Elements convert like top-level arguments
// and must agree on a type: integers and floats together make DOUBLE, NULL
// (nil) takes the others' type; a list of only NULLs (or none) is "NULL"[],
// as DuckDB types [] and [NULL].

// nestedParam converts a slice, array or map argument; ok is false for
// other kinds.
func nestedParam(rv reflect.Value) (v columnar.Value, ok bool, err error) {
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return columnar.NullValue(columnar.TNull), true, nil
		}
		elems := make([]columnar.Value, rv.Len())
		for i := range elems {
			if elems[i], err = paramValue(rv.Index(i).Interface()); err != nil {
				return v, true, fmt.Errorf("element %d: %w", i, err)
			}
		}
		et, err := commonType(elems)
		if err != nil {
			return v, true, err
		}
		return columnar.Value{Type: columnar.ListOf(et), Elems: castAll(elems, et)}, true, nil
	case reflect.Map:
		if rv.IsNil() {
			return columnar.NullValue(columnar.TNull), true, nil
		}
		keys := rv.MapKeys()
		vals := make([]columnar.Value, len(keys))
		ks := make([]columnar.Value, len(keys))
		for i, k := range keys {
			if ks[i], err = paramValue(k.Interface()); err != nil {
				return v, true, fmt.Errorf("map key: %w", err)
			}
			if vals[i], err = paramValue(rv.MapIndex(k).Interface()); err != nil {
				return v, true, fmt.Errorf("map value %s: %w", ks[i], err)
			}
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(ks[a].String(), ks[b].String()) })
		if rv.Type().Key().Kind() == reflect.String {
			if len(keys) == 0 {
				return v, true, fmt.Errorf("an empty map has no STRUCT fields")
			}
			fields := make([]columnar.Field, len(keys))
			elems := make([]columnar.Value, len(keys))
			for j, i := range order {
				fields[j] = columnar.Field{Name: ks[i].S, Type: vals[i].Type}
				elems[j] = vals[i]
			}
			return columnar.Value{Type: columnar.StructOf(fields...), Elems: elems}, true, nil
		}
		kt, err := commonType(ks)
		if err != nil {
			return v, true, fmt.Errorf("map keys: %w", err)
		}
		vt, err := commonType(vals)
		if err != nil {
			return v, true, fmt.Errorf("map values: %w", err)
		}
		mt := columnar.MapOf(kt, vt)
		entries := make([]columnar.Value, len(keys))
		for j, i := range order {
			if ks[i].Null {
				return v, true, fmt.Errorf("NULL map key")
			}
			entries[j] = columnar.Value{Type: mt.Elem(), Elems: []columnar.Value{castParam(ks[i], kt), castParam(vals[i], vt)}}
		}
		return columnar.Value{Type: mt, Elems: entries}, true, nil
	}
	return v, false, nil
}

// commonType is the type of a list's elements (see the note above).
func commonType(vals []columnar.Value) (columnar.Type, error) {
	t := columnar.TNull
	for _, v := range vals {
		m, ok := mergeType(t, v.Type)
		if !ok {
			return t, fmt.Errorf("elements of types %s and %s", t, v.Type)
		}
		t = m
	}
	return t, nil
}

// mergeType is the type holding values of types a and b: NULL gives way
// to the other, numbers widen to DOUBLE, lists merge their elements.
func mergeType(a, b columnar.Type) (columnar.Type, bool) {
	switch {
	case a == b || b.ID == columnar.Null:
		return a, true
	case a.ID == columnar.Null:
		return b, true
	case a.IsNumeric() && b.IsNumeric():
		return columnar.TFloat64, true
	case a.ID == columnar.List && b.ID == columnar.List:
		e, ok := mergeType(a.Elem(), b.Elem())
		return columnar.ListOf(e), ok
	}
	return a, false
}

func castAll(vals []columnar.Value, t columnar.Type) []columnar.Value {
	for i, v := range vals {
		vals[i] = castParam(v, t)
	}
	return vals
}

// castParam gives v (of a type mergeType merged into t) the type t.
func castParam(v columnar.Value, t columnar.Type) columnar.Value {
	switch {
	case v.Type == t:
		return v
	case v.Null:
		return columnar.NullValue(t)
	case t.ID == columnar.Float64:
		return columnar.FloatValue(t, v.AsFloat())
	case t.ID == columnar.List:
		return columnar.Value{Type: t, Elems: castAll(v.Elems, t.Elem())}
	}
	return v
}
