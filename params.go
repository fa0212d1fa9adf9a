package b2sql

import (
	"cmp"
	dbsql "database/sql"
	"database/sql/driver"
	"fmt"
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/engine"
	"github.com/b2sql/b2sql/sql"
)

// paramValues converts the arguments of Query, Exec and Stmt into typed
// constants for the binder. An argument wrapped in database/sql's
// NamedArg (sql.Named("a", 1)) is the value of the statement's $a
// markers: names[i] is the name of vals[i] (names is nil when no
// argument is named, "" for one that is not).
//
// Accepted: nil (an untyped NULL, which takes the type it meets); bool;
// every int and uint width (BIGINT; UBIGINT above the BIGINT range);
// float32 (FLOAT) and float64 (DOUBLE); string (VARCHAR); []byte (BLOB, nil
// is NULL); time.Time (TIMESTAMP, the instant in UTC); time.Duration
// (INTERVAL); columnar.Value as is; driver.Valuer (sql.NullInt64, …) by its
// Value; slices and maps as LIST, STRUCT or MAP (below); and
// pointers to any of these (nil is NULL).
//
// Integers, floats and strings behave like SQL literals: compared with a
// column they take its type when the value fits, so `WHERE d = ?` with the
// string "2024-03-01" compares dates and `WHERE int32col = ?` with an int64
// keeps filter pushdown.
func paramValues(args []any) (vals []columnar.Value, names []string, err error) {
	if len(args) == 0 {
		return nil, nil, nil
	}
	vals = make([]columnar.Value, len(args))
	for i, a := range args {
		if n, ok := a.(dbsql.NamedArg); ok {
			if names == nil {
				names = make([]string, len(args))
			}
			names[i], a = n.Name, n.Value
		}
		v, err := paramValue(a)
		if err != nil {
			return nil, nil, errorf(ErrParam, "argument %d: %v", i+1, err)
		}
		vals[i] = v
	}
	return vals, names, nil
}

// argsFor returns the values of stmt's parameters from vals given by
// names (as paramValues returns them).
func argsFor(stmt sql.Statement, vals []columnar.Value, names []string) ([]columnar.Value, error) {
	out, used, err := engine.ArgsByName(stmt, vals, names)
	if err != nil {
		return nil, err
	}
	return out, engine.UnusedArg(names, used)
}

func paramValue(a any) (columnar.Value, error) {
	switch x := a.(type) {
	case nil:
		return columnar.NullValue(columnar.TNull), nil
	case columnar.Value:
		return x, nil
	case bool:
		return columnar.BoolValue(x), nil
	case int:
		return columnar.IntValue(columnar.TInt64, int64(x)), nil
	case int8:
		return columnar.IntValue(columnar.TInt64, int64(x)), nil
	case int16:
		return columnar.IntValue(columnar.TInt64, int64(x)), nil
	case int32:
		return columnar.IntValue(columnar.TInt64, int64(x)), nil
	case int64:
		return columnar.IntValue(columnar.TInt64, x), nil
	case uint:
		return uintParam(uint64(x)), nil
	case uint8:
		return uintParam(uint64(x)), nil
	case uint16:
		return uintParam(uint64(x)), nil
	case uint32:
		return uintParam(uint64(x)), nil
	case uint64:
		return uintParam(x), nil
	case float32:
		return columnar.FloatValue(columnar.TFloat32, float64(x)), nil
	case float64:
		return columnar.FloatValue(columnar.TFloat64, x), nil
	case string:
		return columnar.StringValue(x), nil
	case []byte:
		if x == nil {
			return columnar.NullValue(columnar.TBlob), nil
		}
		return columnar.Value{Type: columnar.TBlob, S: string(x)}, nil
	case time.Time:
		// A time in UTC is a date and time of day (TIMESTAMP); a time in
		// another location is an instant (TIMESTAMP WITH TIME ZONE), which
		// meets TIMESTAMP values in the session's TimeZone, as DuckDB's
		// casts do: 12:00 in New York is 17:00 UTC whatever the zone.
		if x.Location() == time.UTC {
			return columnar.IntValue(columnar.TTimestamp, x.UnixMicro()), nil
		}
		return columnar.TimestampTZValue(x.UnixMicro(), ""), nil
	case time.Duration:
		return columnar.IntValue(columnar.TInterval, x.Microseconds()), nil
	case driver.Valuer:
		if rv := reflect.ValueOf(x); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return columnar.NullValue(columnar.TNull), nil
		}
		v, err := x.Value()
		if err != nil {
			return columnar.Value{}, err
		}
		if _, again := v.(driver.Valuer); again {
			return columnar.Value{}, fmt.Errorf("%T.Value returned another driver.Valuer", a)
		}
		return paramValue(v)
	}
	rv := reflect.ValueOf(a)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return columnar.NullValue(columnar.TNull), nil
		}
		return paramValue(rv.Elem().Interface())
	}
	if v, ok, err := nestedParam(rv); ok {
		return v, err
	}
	// Named types over basic kinds (type UserID int64).
	switch rv.Kind() {
	case reflect.Bool:
		return columnar.BoolValue(rv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return columnar.IntValue(columnar.TInt64, rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return uintParam(rv.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return columnar.FloatValue(columnar.TFloat64, rv.Float()), nil
	case reflect.String:
		return columnar.StringValue(rv.String()), nil
	}
	return columnar.Value{}, fmt.Errorf("unsupported type %T", a)
}

func uintParam(u uint64) columnar.Value {
	if u <= math.MaxInt64 {
		return columnar.IntValue(columnar.TInt64, int64(u))
	}
	return columnar.UintValue(u)
}

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
