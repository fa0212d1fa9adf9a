package arrowrec

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/b2sql/b2sql/columnar"
)

// Type maps a SQL type to its Arrow type (the table in the package doc).
func Type(t columnar.Type) arrow.DataType {
	if t.IsNested() {
		return arrowNestedType(t)
	}
	switch t.ID {
	case columnar.Null:
		return arrow.Null
	case columnar.Bool:
		return arrow.FixedWidthTypes.Boolean
	case columnar.Int8:
		return arrow.PrimitiveTypes.Int8
	case columnar.Int16:
		return arrow.PrimitiveTypes.Int16
	case columnar.Int32:
		return arrow.PrimitiveTypes.Int32
	case columnar.Int64:
		return arrow.PrimitiveTypes.Int64
	case columnar.Uint8:
		return arrow.PrimitiveTypes.Uint8
	case columnar.Uint16:
		return arrow.PrimitiveTypes.Uint16
	case columnar.Uint32:
		return arrow.PrimitiveTypes.Uint32
	case columnar.Uint64:
		return arrow.PrimitiveTypes.Uint64
	case columnar.Float32:
		return arrow.PrimitiveTypes.Float32
	case columnar.Float64:
		return arrow.PrimitiveTypes.Float64
	case columnar.Decimal, columnar.Decimal128:
		return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}
	case columnar.Hugeint, columnar.Uhugeint:
		// As DuckDB exports HUGEINT and UHUGEINT (without
		// arrow_lossless_conversion): decimal128(38, 0).
		return &arrow.Decimal128Type{Precision: 38, Scale: 0}
	case columnar.Varchar:
		return arrow.BinaryTypes.String
	case columnar.Blob, columnar.Geometry: // a geometry as its WKB
		return arrow.BinaryTypes.Binary
	case columnar.Date:
		return arrow.FixedWidthTypes.Date32
	case columnar.Timestamp:
		return &arrow.TimestampType{Unit: arrow.Microsecond}
	case columnar.TimestampTZ:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	case columnar.TimestampS: // in their own units, as DuckDB exports them
		return &arrow.TimestampType{Unit: arrow.Second}
	case columnar.TimestampMS:
		return &arrow.TimestampType{Unit: arrow.Millisecond}
	case columnar.TimestampNS:
		return &arrow.TimestampType{Unit: arrow.Nanosecond}
	case columnar.Interval:
		return arrow.FixedWidthTypes.Duration_us
	case columnar.Time, columnar.TimeTZ:
		return arrow.FixedWidthTypes.Time64us
	case columnar.Enum:
		return enumType(t) // enum.go
	}
	return arrow.BinaryTypes.String
}

// Record converts the live rows of b, whose columns have the types, into a
// record of the schema (built from Type of each). The record shares the
// 64-bit payloads of a batch without selection (see the package doc); the
// caller releases it.
func Record(schema *arrow.Schema, types []columnar.Type, b *columnar.Batch) (arrow.RecordBatch, error) {
	n := b.Live()
	arrs := make([]arrow.Array, len(b.Cols))
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, v := range b.Cols {
		data, err := arrowData(schema.Field(i).Type, types[i], v, b)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", schema.Field(i).Name, err)
		}
		arrs[i] = array.MakeFromData(data)
		data.Release()
	}
	return array.NewRecordBatch(schema, arrs, int64(n)), nil
}

// arrowData converts one column. Fixed 64-bit payloads of a batch without
// selection are shared, not copied (see the package doc for the lifetime).
func arrowData(dt arrow.DataType, t columnar.Type, v *columnar.Vector, b *columnar.Batch) (*array.Data, error) {
	n := b.Live()
	if t.ID == columnar.Null {
		return array.NewData(dt, n, []*memory.Buffer{nil}, nil, n, 0), nil
	}
	if t.IsNested() {
		return arrowNested(dt, v, b)
	}
	valid, nulls := arrowValidity(v, b)
	shared := !v.Const && b.Sel == nil && n > 0
	var values []byte
	switch t.ID {
	case columnar.Interval:
		// A Duration in microseconds, a month as 30 days (the Go view).
		folded := make([]int64, len(v.Bytes))
		for i := range folded {
			folded[i] = v.IntervalAt(i).FoldedMicros()
		}
		values = bytesOf(gather(folded, v.Const, b, func(x int64) int64 { return x }))
	case columnar.Int64, columnar.Timestamp, columnar.TimestampTZ, columnar.Time,
		columnar.TimestampS, columnar.TimestampMS, columnar.TimestampNS:
		if shared {
			values = bytesOf(v.Ints[:n])
		} else {
			values = bytesOf(gather(v.Ints, v.Const, b, func(x int64) int64 { return x }))
		}
	case columnar.Uint64:
		if shared {
			values = bytesOf(v.Uints[:n])
		} else {
			values = bytesOf(gather(v.Uints, v.Const, b, func(x uint64) uint64 { return x }))
		}
	case columnar.Float64:
		if shared {
			values = bytesOf(v.Floats[:n])
		} else {
			values = bytesOf(gather(v.Floats, v.Const, b, func(x float64) float64 { return x }))
		}
	case columnar.Float32:
		values = bytesOf(gather(v.Floats, v.Const, b, func(x float64) float32 { return float32(x) }))
	case columnar.Int8:
		values = bytesOf(gather(v.Ints, v.Const, b, func(x int64) int8 { return int8(x) }))
	case columnar.Int16:
		values = bytesOf(gather(v.Ints, v.Const, b, func(x int64) int16 { return int16(x) }))
	case columnar.Int32, columnar.Date:
		values = bytesOf(gather(v.Ints, v.Const, b, func(x int64) int32 { return int32(x) }))
	case columnar.Uint8:
		values = bytesOf(gather(v.Ints, v.Const, b, func(x int64) uint8 { return uint8(x) }))
	case columnar.Uint16:
		values = bytesOf(gather(v.Ints, v.Const, b, func(x int64) uint16 { return uint16(x) }))
	case columnar.Uint32:
		values = bytesOf(gather(v.Ints, v.Const, b, func(x int64) uint32 { return uint32(x) }))
	case columnar.Decimal:
		values = bytesOf(gather(v.Ints, v.Const, b, func(x int64) [2]uint64 { return [2]uint64{uint64(x), uint64(x >> 63)} }))
	case columnar.Decimal128, columnar.Hugeint, columnar.Uhugeint:
		// Arrow's decimal128: the low 64 bits, then the high, little-endian.
		pairs := make([][2]uint64, n)
		for k := range n {
			if i := rowAt(v.Const, b, k); !v.IsNull(i) {
				x := columnar.Int128FromKey(v.Bytes[i])
				if v.Type.ID == columnar.Uhugeint {
					x = columnar.Uint128FromKey(v.Bytes[i])
				}
				pairs[k] = [2]uint64{x.Lo, uint64(x.Hi)}
			}
		}
		values = bytesOf(pairs)
	case columnar.Bool:
		bits := make([]byte, (n+7)/8)
		for k := range n {
			i := rowAt(v.Const, b, k)
			if v.Bools[i] {
				bits[k>>3] |= 1 << (k & 7)
			}
		}
		values = bits
	case columnar.Varchar, columnar.Blob, columnar.Geometry:
		return arrowBytes(dt, v, b, valid, nulls)
	case columnar.Uuid:
		return arrowText(dt, v, b, valid, nulls, columnar.AppendUUID)
	case columnar.Bit:
		return arrowText(dt, v, b, valid, nulls, columnar.AppendBit)
	case columnar.Enum:
		return arrowEnum(dt, v, b, valid, nulls) // enum.go
	case columnar.TimeTZ:
		values = bytesOf(gather(v.Ints, v.Const, b, timeTZLocal))
	default:
		return nil, fmt.Errorf("type %s has no Arrow mapping", t)
	}
	return array.NewData(dt, n, []*memory.Buffer{valid, memory.NewBufferBytes(values)}, nil, nulls, 0), nil
}

// arrowBytes builds a utf8 or binary column (offsets and data, copied).
func arrowBytes(dt arrow.DataType, v *columnar.Vector, b *columnar.Batch, valid *memory.Buffer, nulls int) (*array.Data, error) {
	n := b.Live()
	offsets := make([]int32, n+1)
	size := 0
	for k := range n {
		if i := rowAt(v.Const, b, k); !v.IsNull(i) {
			size += len(v.Bytes[i])
		}
	}
	if size > math.MaxInt32 {
		return nil, fmt.Errorf("batch holds %d bytes of strings, more than Arrow utf8 offsets address", size)
	}
	data := make([]byte, 0, size)
	for k := range n {
		if i := rowAt(v.Const, b, k); !v.IsNull(i) {
			data = append(data, v.Bytes[i]...)
		}
		offsets[k+1] = int32(len(data))
	}
	return array.NewData(dt, n, []*memory.Buffer{valid, memory.NewBufferBytes(bytesOf(offsets)), memory.NewBufferBytes(data)}, nil, nulls, 0), nil
}

// arrowText builds a utf8 column of values' text: UUIDs' 36 characters,
// as DuckDB exports UUID to Arrow (without arrow_lossless_conversion), and
// BITs' '0's and '1's, the text b2sql's other outputs give them.
func arrowText(dt arrow.DataType, v *columnar.Vector, b *columnar.Batch, valid *memory.Buffer, nulls int, appendText func(dst, b []byte) []byte) (*array.Data, error) {
	n := b.Live()
	offsets := make([]int32, n+1)
	data := make([]byte, 0, 36*(n-nulls))
	for k := range n {
		if i := rowAt(v.Const, b, k); !v.IsNull(i) {
			data = appendText(data, v.Bytes[i])
		}
		offsets[k+1] = int32(len(data))
	}
	return array.NewData(dt, n, []*memory.Buffer{valid, memory.NewBufferBytes(bytesOf(offsets)), memory.NewBufferBytes(data)}, nil, nulls, 0), nil
}

// arrowValidity returns the validity bitmap of the live rows (nil when
// none is NULL) and the NULL count.
func arrowValidity(v *columnar.Vector, b *columnar.Batch) (*memory.Buffer, int) {
	n := b.Live()
	if v.Valid == nil {
		return nil, 0
	}
	if !v.Const && b.Sel == nil && len(v.Valid)*64 >= n && littleEndian {
		// columnar.Bitmap is LSB-first 64-bit words: on a little-endian
		// machine its bytes are an Arrow validity bitmap.
		nulls := n - v.Valid.CountSet(n)
		if nulls == 0 {
			return nil, 0
		}
		return memory.NewBufferBytes(bytesOf(v.Valid[:(n+63)/64])), nulls
	}
	bits := make([]byte, (n+7)/8)
	nulls := 0
	for k := range n {
		if v.IsNull(rowAt(v.Const, b, k)) {
			nulls++
		} else {
			bits[k>>3] |= 1 << (k & 7)
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	return memory.NewBufferBytes(bits), nulls
}

var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// rowAt is the payload index of live row k.
func rowAt(isConst bool, b *columnar.Batch, k int) int {
	if isConst {
		return 0
	}
	return b.Row(k)
}

// Nested columns in Arrow records: LIST → list<element>, STRUCT →
// struct<fields>, MAP → map<key, value> (keys not nullable), nested to any
// depth, every child nullable but a map's key. A columnar LIST is a list
// view (rows may share or reorder child ranges), Arrow's a list of
// ascending offsets, so the child rows are gathered in row order: nested
// columns are always copied.

// arrowNestedType is arrowType for LIST, STRUCT and MAP.
func arrowNestedType(t columnar.Type) arrow.DataType {
	switch t.ID {
	case columnar.List:
		return arrow.ListOfField(arrow.Field{Name: "element", Type: Type(t.Elem()), Nullable: true})
	case columnar.Map:
		fs := t.Fields()
		return arrow.MapOf(Type(fs[0].Type), Type(fs[1].Type))
	}
	fs := t.Fields()
	fields := make([]arrow.Field, len(fs))
	for i, f := range fs {
		fields[i] = arrow.Field{Name: f.Name, Type: Type(f.Type), Nullable: true}
	}
	return arrow.StructOf(fields...)
}

// arrowNested converts the live rows of b of the nested column v.
func arrowNested(dt arrow.DataType, v *columnar.Vector, b *columnar.Batch) (*array.Data, error) {
	rows := make([]int, b.Live())
	for k := range rows {
		rows[k] = rowAt(v.Const, b, k)
	}
	return arrowRows(dt, v.Type, v, rows)
}

// arrowRows converts rows of v (payload indexes, in the order wanted, a
// row possibly more than once) of any type.
func arrowRows(dt arrow.DataType, t columnar.Type, v *columnar.Vector, rows []int) (*array.Data, error) {
	n := len(rows)
	if v.Type.ID == columnar.Null && t.ID != columnar.Null {
		// An untyped NULL vector standing for a nested value: all NULL.
		a := array.MakeArrayOfNull(memory.DefaultAllocator, dt, n)
		defer a.Release()
		d := a.Data().(*array.Data)
		d.Retain()
		return d, nil
	}
	if !t.IsNested() {
		// arrowData gathers the live rows of a batch: one whose selection
		// lists the rows wanted reads exactly those. Rows 0…n-1 in order
		// (the elements of lists stored one after the other, from a batch
		// without selection) are the vector's own layout: no selection,
		// so its 64-bit payloads are shared, not copied.
		b := &columnar.Batch{Len: len(rows), Sel: rows}
		if inOrder(rows) {
			b.Sel = nil
		}
		return arrowData(dt, t, v, b)
	}
	valid, nulls := arrowValidity(v, &columnar.Batch{Len: n, Sel: rows})
	switch t.ID {
	case columnar.Struct:
		fs := t.Fields()
		kids := make([]arrow.ArrayData, len(fs))
		defer releaseAll(kids)
		for f := range fs {
			d, err := arrowRows(dt.(*arrow.StructType).Field(f).Type, fs[f].Type, v.Kids[f], rows)
			if err != nil {
				return nil, err
			}
			kids[f] = d
		}
		return array.NewData(dt, n, []*memory.Buffer{valid}, kids, nulls, 0), nil
	case columnar.List, columnar.Map:
		offsets := make([]int32, n+1)
		var kidRows []int
		for k, i := range rows {
			if !v.IsNull(i) {
				for j := v.Starts[i]; j < v.Ends[i]; j++ {
					kidRows = append(kidRows, int(j))
				}
			}
			if len(kidRows) > 1<<31-1 {
				return nil, fmt.Errorf("batch holds %d list elements, more than Arrow list offsets address", len(kidRows))
			}
			offsets[k+1] = int32(len(kidRows))
		}
		if kidRows == nil {
			kidRows = []int{}
		}
		var elemType arrow.DataType
		if t.ID == columnar.Map {
			elemType = dt.(*arrow.MapType).Elem()
		} else {
			elemType = dt.(*arrow.ListType).Elem()
		}
		kid, err := arrowRows(elemType, t.Elem(), v.Kids[0], kidRows)
		if err != nil {
			return nil, err
		}
		defer kid.Release()
		return array.NewData(dt, n, []*memory.Buffer{valid, memory.NewBufferBytes(bytesOf(offsets))}, []arrow.ArrayData{kid}, nulls, 0), nil
	}
	return nil, fmt.Errorf("type %s has no Arrow mapping", t)
}

// inOrder reports whether rows are 0, 1, …, len(rows)-1.
func inOrder(rows []int) bool {
	for k, i := range rows {
		if i != k {
			return false
		}
	}
	return true
}

func releaseAll(ds []arrow.ArrayData) {
	for _, d := range ds {
		if d != nil {
			d.Release()
		}
	}
}
