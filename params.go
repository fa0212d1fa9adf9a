package b2sql

import (
	"database/sql/driver"
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// paramValues converts the arguments of Query, Exec and Stmt into typed
// constants for the binder.
//
// Accepted: nil (an untyped NULL, which takes the type it meets); bool;
// every int and uint width (BIGINT; UBIGINT above the BIGINT range);
// float32 (FLOAT) and float64 (DOUBLE); string (VARCHAR); []byte (BLOB, nil
// is NULL); time.Time (TIMESTAMP, the instant in UTC); time.Duration
// (INTERVAL); columnar.Value as is; driver.Valuer (sql.NullInt64, …) by its
// Value; slices and maps as LIST, STRUCT or MAP (params_nested.go); and
// pointers to any of these (nil is NULL).
//
// Integers, floats and strings behave like SQL literals: compared with a
// column they take its type when the value fits, so `WHERE d = ?` with the
// string "2024-03-01" compares dates and `WHERE int32col = ?` with an int64
// keeps filter pushdown.
func paramValues(args []any) ([]columnar.Value, error) {
	if len(args) == 0 {
		return nil, nil
	}
	out := make([]columnar.Value, len(args))
	for i, a := range args {
		v, err := paramValue(a)
		if err != nil {
			return nil, errorf(ErrParam, "argument %d: %v", i+1, err)
		}
		out[i] = v
	}
	return out, nil
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
		return columnar.IntValue(columnar.TTimestamp, x.UnixMicro()), nil
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
