package parquet

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/parquet/variant"

	"github.com/b2sql/b2sql/columnar"
)

// A VARIANT column (Parquet's VARIANT logical type, shredded or not) is
// read as JSON text in a VARCHAR: b2sql has no VARIANT type, and the text
// is the one DuckDB 1.5 gives with CAST(v AS JSON). arrow-go's pqarrow
// maps the annotated group to its Variant extension type, whose arrays
// reassemble each row from the shredded typed_value and the binary value
// (extensions.VariantArray.Value); appendVariantJSON writes the result.
// A row whose group is NULL is NULL, and so is a variant null at the top
// (DuckDB says v IS NULL of it, though its CAST(v AS JSON) says null);
// inside an object or array a variant null is null.

// putVariant writes the rows of a as JSON text to rows [at, at+a.Len())
// of the VARCHAR vector v.
func putVariant(v *columnar.Vector, at, size int, a *extensions.VariantArray) (err error) {
	if v.Type.ID != columnar.Varchar {
		return fmt.Errorf("%w: VARIANT read into %s", ErrUnsupported, v.Type)
	}
	// arrow-go's decoding trusts the encoded sizes in places: a corrupt
	// value panics there instead of returning an error.
	defer func() {
		if r := recover(); r != nil {
			err = corruptf("variant value: %v", r)
		}
	}()
	for i := range a.Len() {
		if a.IsNull(i) { // NULL, or a variant null (DuckDB: v IS NULL)
			v.SetNull(at+i, size)
			continue
		}
		val, err := a.Value(i)
		if err != nil {
			return corruptf("variant value: %v", err)
		}
		b, err := appendVariantJSON(nil, val)
		if err != nil {
			return err
		}
		v.Bytes[at+i] = b
	}
	return nil
}

// appendVariantJSON appends val as JSON: objects and arrays as such,
// numbers and booleans bare, every other value as a string of its SQL
// text (dates, times, timestamps, UUIDs, blobs as DuckDB prints them).
func appendVariantJSON(dst []byte, val variant.Value) ([]byte, error) {
	x := val.Value()
	switch val.Type() {
	case variant.Null:
		return append(dst, "null"...), nil
	case variant.Bool:
		return strconv.AppendBool(dst, x.(bool)), nil
	case variant.Int8:
		return strconv.AppendInt(dst, int64(x.(int8)), 10), nil
	case variant.Int16:
		return strconv.AppendInt(dst, int64(x.(int16)), 10), nil
	case variant.Int32:
		return strconv.AppendInt(dst, int64(x.(int32)), 10), nil
	case variant.Int64:
		return strconv.AppendInt(dst, x.(int64), 10), nil
	case variant.Float:
		return columnar.AppendJSONFloat(dst, float64(x.(float32))), nil
	case variant.Double:
		return columnar.AppendJSONFloat(dst, x.(float64)), nil
	case variant.Decimal4:
		d := x.(variant.DecimalValue[decimal.Decimal32])
		return columnar.AppendBigDecimal(dst, big.NewInt(int64(d.Value.(decimal.Decimal32))), int(d.Scale)), nil
	case variant.Decimal8:
		d := x.(variant.DecimalValue[decimal.Decimal64])
		return columnar.AppendBigDecimal(dst, big.NewInt(int64(d.Value.(decimal.Decimal64))), int(d.Scale)), nil
	case variant.Decimal16:
		d := x.(variant.DecimalValue[decimal.Decimal128])
		return columnar.AppendBigDecimal(dst, d.Value.(decimal.Decimal128).BigInt(), int(d.Scale)), nil
	case variant.String:
		return columnar.StringValue(x.(string)).AppendJSON(dst), nil
	case variant.Binary:
		return columnar.Value{Type: columnar.TBlob, S: string(x.([]byte))}.AppendJSON(dst), nil
	case variant.Date:
		return columnar.IntValue(columnar.TDate, int64(x.(arrow.Date32))).AppendJSON(dst), nil
	case variant.Time:
		return columnar.IntValue(columnar.TTime, int64(x.(arrow.Time64))).AppendJSON(dst), nil
	case variant.TimestampMicros:
		return columnar.IntValue(columnar.TTimestampTZ, int64(x.(arrow.Timestamp))).AppendJSON(dst), nil
	case variant.TimestampMicrosNTZ:
		return columnar.IntValue(columnar.TTimestamp, int64(x.(arrow.Timestamp))).AppendJSON(dst), nil
	case variant.TimestampNanos:
		// DuckDB has no nanosecond TIMESTAMPTZ: the UTC instant's text, +00.
		s := columnar.IntValue(columnar.TTimestampNS, int64(x.(arrow.Timestamp))).String() + "+00"
		return columnar.StringValue(s).AppendJSON(dst), nil
	case variant.TimestampNanosNTZ:
		return columnar.IntValue(columnar.TTimestampNS, int64(x.(arrow.Timestamp))).AppendJSON(dst), nil
	case variant.UUID:
		b := val.Bytes() // the header byte, then the 16 bytes
		if len(b) < 1+columnar.UUIDSize {
			return nil, corruptf("variant UUID of %d bytes", len(b)-1)
		}
		return columnar.UUIDValue([columnar.UUIDSize]byte(b[1 : 1+columnar.UUIDSize])).AppendJSON(dst), nil
	case variant.Array:
		arr := x.(variant.ArrayValue)
		dst = append(dst, '[')
		for i := range arr.Len() {
			if i > 0 {
				dst = append(dst, ',')
			}
			e, err := arr.Value(i)
			if err != nil {
				return nil, corruptf("variant array element %d: %v", i, err)
			}
			if dst, err = appendVariantJSON(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case variant.Object:
		obj := x.(variant.ObjectValue)
		fs := make([]variant.ObjectField, obj.NumElements())
		for i := range fs {
			f, err := obj.FieldAt(uint32(i))
			if err != nil {
				return nil, corruptf("variant object field %d: %v", i, err)
			}
			fs[i] = f
		}
		// The encoding keeps fields in name order, but an object
		// reassembled from shredded fields has them in the file schema's
		// order: DuckDB writes them in name order.
		slices.SortStableFunc(fs, func(a, b variant.ObjectField) int { return strings.Compare(a.Key, b.Key) })
		dst = append(dst, '{')
		for i, f := range fs {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			dst = columnar.StringValue(f.Key).AppendJSON(dst)
			dst = append(dst, ':')
			if dst, err = appendVariantJSON(dst, f.Value); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	}
	return nil, fmt.Errorf("%w: variant value of type %v", ErrUnsupported, val.Type())
}
