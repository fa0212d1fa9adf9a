package b2sql

import (
	"database/sql"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// Scan copies the current row's columns into dest, one pointer per column.
// A destination takes a value whose conversion is exact:
//
//   - *int, *int8 … *int64, *uint … *uint64: integers in range, DECIMALs
//     with no fraction; *float32, *float64: any number (float32 rounds);
//   - *string: any value, as DuckDB prints it; *[]byte: a copy of VARCHAR
//     or BLOB bytes (nil for NULL), other values as text;
//   - *bool: BOOLEAN; *time.Time: DATE (midnight UTC) and TIMESTAMP (UTC);
//     *time.Duration: INTERVAL;
//   - *any: the natural Go value (see Value), nil for NULL;
//   - *[]any: a LIST; *map[string]any: a STRUCT (nil for NULL);
//     *json.RawMessage: any value as JSON (arrays, objects, null);
//   - *columnar.Value: the cell as the engine holds it;
//   - any sql.Scanner (sql.NullInt64, sql.NullString, sql.Null[T], …),
//     given the value Value returns.
//
// NULL can only go to *any, *[]byte, *columnar.Value, a sql.Scanner or a
// pointer to a pointer (**int64 is set to nil); elsewhere it is an
// ErrScan error naming the column. dest must hold one pointer per column;
// Scan is valid after a Next that returned true.
func (r *Rows) Scan(dest ...any) error {
	if len(dest) != len(r.cols) {
		return errorf(ErrScan, "Scan: %d destinations for %d columns", len(dest), len(r.cols))
	}
	for i, d := range dest {
		if err := scanValue(r.cur[i], d); err != nil {
			return errorf(ErrScan, "Scan: column %d (%q): %v", i+1, r.cols[i].Name, err)
		}
	}
	return nil
}

// Value returns the natural Go value of a cell: nil for NULL, bool, int64
// (signed and unsigned integers up to UINTEGER), uint64 (UBIGINT), float64
// (FLOAT, DOUBLE, DECIMAL), string (VARCHAR), []byte (BLOB; GEOMETRY as
// its WKB, as DuckDB's Go driver gives it, which WKB decoders and
// sql.Scanner geometry types read), time.Time
// (DATE, TIMESTAMP, in UTC; TIME on 0001-01-01 UTC, as the DuckDB driver
// gives it; TIME WITH TIME ZONE on 0001-01-01 in a fixed zone of its
// offset), string (ENUM, its value), time.Duration (INTERVAL), []any (LIST), map[string]any
// (STRUCT) or map[any]any (MAP), their parts by Value.
func Value(v columnar.Value) any {
	if v.Null {
		return nil
	}
	switch v.Type.ID {
	case columnar.Null:
		return nil
	case columnar.Bool:
		return v.Bool()
	case columnar.Uint64:
		return v.Uint()
	case columnar.Float32, columnar.Float64, columnar.Decimal, columnar.Decimal128:
		return v.AsFloat()
	case columnar.Hugeint, columnar.Uhugeint:
		return v.WideBig() // *big.Int, as DuckDB's Go driver gives it
	case columnar.Varchar:
		return v.S
	case columnar.Uuid, columnar.Bit:
		return v.String() // its text, which uuid packages scan; a BIT's '0's and '1's
	case columnar.Blob, columnar.Geometry:
		return []byte(v.S)
	case columnar.Date:
		return columnar.DateToTime(v.I)
	case columnar.Timestamp, columnar.TimestampS, columnar.TimestampMS, columnar.TimestampNS:
		return columnar.TimestampUnitToTime(v.Type, v.I) // with all its digits
	case columnar.TimestampTZ:
		return columnar.TimestampToTime(v.I).In(v.Zone()) // the instant, in the session's zone
	case columnar.Time:
		return columnar.ClockTime(v.I)
	case columnar.TimeTZ:
		return columnar.ClockTimeTZ(v.I)
	case columnar.Enum:
		return v.String() // its value's text, as DuckDB's Go driver gives it
	case columnar.Interval:
		return time.Duration(v.I) * time.Microsecond
	case columnar.List, columnar.Struct, columnar.Map:
		return nestedValue(v) // rows_nested.go
	}
	return v.I
}

func scanValue(v columnar.Value, dest any) error {
	if ok, err := scanNested(v, dest); ok { // rows_nested.go
		return err
	}
	switch d := dest.(type) {
	case *any:
		*d = Value(v)
		return nil
	case *columnar.Value:
		*d = v
		return nil
	case *[]byte:
		switch {
		case v.Null:
			*d = nil
		case v.Type.IsString(), v.Type.ID == columnar.Geometry: // a GEOMETRY's WKB
			*d = []byte(v.S)
		default:
			*d = v.AppendText(nil)
		}
		return nil
	case sql.Scanner:
		return d.Scan(driverValue(v))
	}
	if v.Null || v.Type.ID == columnar.Null {
		rv := reflect.ValueOf(dest)
		if rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Elem().Kind() == reflect.Pointer {
			rv.Elem().SetZero()
			return nil
		}
		return fmt.Errorf("cannot store NULL in %T", dest)
	}
	switch d := dest.(type) {
	case *string:
		*d = v.String()
		return nil
	case *bool:
		if v.Type.ID != columnar.Bool {
			return mismatch(v, dest)
		}
		*d = v.Bool()
		return nil
	case *time.Time:
		switch v.Type.ID {
		case columnar.Date:
			*d = columnar.DateToTime(v.I)
		case columnar.Timestamp, columnar.TimestampS, columnar.TimestampMS, columnar.TimestampNS:
			*d = columnar.TimestampUnitToTime(v.Type, v.I)
		case columnar.TimestampTZ:
			*d = columnar.TimestampToTime(v.I).In(v.Zone())
		case columnar.Time:
			*d = columnar.ClockTime(v.I)
		case columnar.TimeTZ:
			*d = columnar.ClockTimeTZ(v.I)
		default:
			return mismatch(v, dest)
		}
		return nil
	case *time.Duration:
		// A TIME scans into a Duration too: the time since midnight.
		if v.Type.ID != columnar.Interval && v.Type.ID != columnar.Time {
			return mismatch(v, dest)
		}
		*d = time.Duration(v.I) * time.Microsecond
		return nil
	case *float64:
		if !v.Type.IsNumeric() && !v.Type.Wide() {
			return mismatch(v, dest)
		}
		*d = v.AsFloat()
		return nil
	case *float32:
		if !v.Type.IsNumeric() && !v.Type.Wide() {
			return mismatch(v, dest)
		}
		*d = float32(v.AsFloat())
		return nil
	}
	rv := reflect.ValueOf(dest)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("destination %T is not a non-nil pointer", dest)
	}
	e := rv.Elem()
	switch e.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := exactInt(v)
		if err != nil {
			return err
		}
		if e.OverflowInt(n) {
			return fmt.Errorf("value %s overflows %s", v, e.Type())
		}
		e.SetInt(n)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		var u uint64
		if v.Type.ID == columnar.Uint64 {
			u = v.Uint()
		} else {
			n, err := exactInt(v)
			if err != nil {
				return err
			}
			if n < 0 {
				return fmt.Errorf("value %s overflows %s", v, e.Type())
			}
			u = uint64(n)
		}
		if e.OverflowUint(u) {
			return fmt.Errorf("value %s overflows %s", v, e.Type())
		}
		e.SetUint(u)
		return nil
	case reflect.Float32, reflect.Float64:
		if !v.Type.IsNumeric() && !v.Type.Wide() {
			return mismatch(v, dest)
		}
		e.SetFloat(v.AsFloat())
		return nil
	case reflect.String:
		e.SetString(v.String())
		return nil
	case reflect.Bool:
		if v.Type.ID != columnar.Bool {
			return mismatch(v, dest)
		}
		e.SetBool(v.Bool())
		return nil
	case reflect.Pointer:
		// **T: allocate a T and scan into it.
		p := reflect.New(e.Type().Elem())
		if err := scanValue(v, p.Interface()); err != nil {
			return err
		}
		e.Set(p)
		return nil
	}
	return mismatch(v, dest)
}

// exactInt returns an integer-valued cell as int64.
func exactInt(v columnar.Value) (int64, error) {
	switch {
	case v.Type.ID == columnar.Uint64:
		if v.Uint() > math.MaxInt64 {
			return 0, fmt.Errorf("value %s overflows int64", v)
		}
		return v.I, nil
	case v.Type.IsInteger():
		return v.I, nil
	case v.Type.ID == columnar.Decimal:
		p := int64(1)
		for range v.Type.Scale {
			p *= 10
		}
		if v.I%p != 0 {
			return 0, fmt.Errorf("value %s has a fraction", v)
		}
		return v.I / p, nil
	case v.Type.Wide():
		n := v.WideBig()
		if v.Type.ID == columnar.Decimal128 {
			q, r := new(big.Int).QuoRem(n, columnar.Pow10Big(int(v.Type.Scale)), new(big.Int))
			if r.Sign() != 0 {
				return 0, fmt.Errorf("value %s has a fraction", v)
			}
			n = q
		}
		if !n.IsInt64() {
			return 0, fmt.Errorf("value %s overflows int64", v)
		}
		return n.Int64(), nil
	case v.Type.IsFloat():
		if v.F != math.Trunc(v.F) || math.Abs(v.F) >= 1<<63 {
			return 0, fmt.Errorf("value %s is not an integer", strconv.FormatFloat(v.F, 'g', -1, 64))
		}
		return int64(v.F), nil
	}
	return 0, fmt.Errorf("cannot store %s in an integer", v.Type)
}

// driverValue returns a cell as a database/sql driver value: nil, bool,
// int64, uint64 (UBIGINT above the int64 range), float64 (DECIMAL too),
// string, []byte, time.Time, and int64 nanoseconds for INTERVAL (so that
// a time.Duration destination reads it right).
func driverValue(v columnar.Value) any {
	x := Value(v)
	switch x := x.(type) {
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
	case time.Duration:
		return int64(x)
	case *big.Int:
		// HUGEINT: int64 when it fits, else its decimal text (a driver
		// value has no wider integer).
		if x.IsInt64() {
			return x.Int64()
		}
		return x.String()
	}
	return x
}
