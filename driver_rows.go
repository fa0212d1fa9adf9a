package b2sql

import (
	"database/sql/driver"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// driverRows adapts Rows to database/sql, with column type metadata.
type driverRows struct{ r *Rows }

var (
	_ driver.Rows                           = (*driverRows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*driverRows)(nil)
	_ driver.RowsColumnTypeScanType         = (*driverRows)(nil)
	_ driver.RowsColumnTypeNullable         = (*driverRows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*driverRows)(nil)
)

func (d *driverRows) Columns() []string {
	out := make([]string, len(d.r.cols))
	for i, c := range d.r.cols {
		out[i] = c.Name
	}
	return out
}

// Close may be called by database/sql from another goroutine when the
// query's context is cancelled; Rows.Close allows that.
func (d *driverRows) Close() error { return d.r.Close() }

func (d *driverRows) Next(dest []driver.Value) error {
	if !d.r.Next() {
		if err := d.r.Err(); err != nil {
			return err
		}
		return io.EOF
	}
	for i, v := range d.r.cur {
		dest[i] = driverValue(v)
	}
	return nil
}

// ColumnTypeDatabaseTypeName is the SQL type name without parameters
// (DECIMAL, not DECIMAL(10,2)), upper case.
func (d *driverRows) ColumnTypeDatabaseTypeName(i int) string {
	name := d.r.cols[i].Type.String()
	if j := strings.IndexByte(name, '('); j >= 0 {
		name = name[:j]
	}
	return name
}

// ColumnTypeNullable reports every result column as possibly NULL: the
// engine does not track nullability through expressions.
func (d *driverRows) ColumnTypeNullable(int) (nullable, ok bool) { return true, true }

func (d *driverRows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	t := d.r.cols[i].Type
	if t.ID != columnar.Decimal {
		return 0, 0, false
	}
	return int64(t.Precision), int64(t.Scale), true
}

// ColumnTypeScanType is the Go type a non-NULL value of the column scans
// into without loss.
func (d *driverRows) ColumnTypeScanType(i int) reflect.Type { return scanType(d.r.cols[i].Type) }

func scanType(t columnar.Type) reflect.Type {
	switch t.ID {
	case columnar.Bool:
		return reflect.TypeFor[bool]()
	case columnar.Int8:
		return reflect.TypeFor[int8]()
	case columnar.Int16:
		return reflect.TypeFor[int16]()
	case columnar.Int32:
		return reflect.TypeFor[int32]()
	case columnar.Int64:
		return reflect.TypeFor[int64]()
	case columnar.Uint8:
		return reflect.TypeFor[uint8]()
	case columnar.Uint16:
		return reflect.TypeFor[uint16]()
	case columnar.Uint32:
		return reflect.TypeFor[uint32]()
	case columnar.Uint64:
		return reflect.TypeFor[uint64]()
	case columnar.Float32:
		return reflect.TypeFor[float32]()
	case columnar.Float64, columnar.Decimal, columnar.Decimal128:
		return reflect.TypeFor[float64]()
	case columnar.Hugeint, columnar.Uhugeint:
		return reflect.TypeFor[any]() // *big.Int from Value, int64 or text from the driver
	case columnar.Varchar, columnar.Uuid, columnar.Enum, columnar.Bit:
		return reflect.TypeFor[string]()
	case columnar.Blob, columnar.Geometry: // a GEOMETRY as its WKB
		return reflect.TypeFor[[]byte]()
	case columnar.Date, columnar.Timestamp, columnar.TimestampTZ, columnar.Time, columnar.TimeTZ,
		columnar.TimestampS, columnar.TimestampMS, columnar.TimestampNS:
		return reflect.TypeFor[time.Time]()
	case columnar.Interval:
		return reflect.TypeFor[time.Duration]()
	}
	return reflect.TypeFor[any]()
}
