package parquet

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/columnar/columnartest"
	"github.com/b2sql/b2sql/index"
)

// tcol is a test column: how arrow-go's writer receives row i and what our
// reader must return for it. Values are formulas of the row number, so the
// expected answer never depends on code under test.
type tcol struct {
	name     string
	typ      arrow.DataType
	nullable bool // NULL where isNull(i)
	want     columnar.Type
	app      func(b array.Builder, i int)
	val      func(i int) columnar.Value
}

func isNull(i int) bool { return i%7 == 3 }

func big10(e int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil) }

// dec38 is the unscaled value of the wide decimal column at row i.
func dec38(i int) *big.Int {
	x := new(big.Int).Mul(big.NewInt(int64(i)-400), big10(20))
	return x.Add(x, big.NewInt(7))
}

// allCols covers every type mapping of the package (a nested list column is
// added by writeArrow callers that want it).
func allCols() []tcol {
	i64 := func(t columnar.Type, f func(i int) int64) func(int) columnar.Value {
		return func(i int) columnar.Value { return columnar.IntValue(t, f(i)) }
	}
	return []tcol{
		{name: "id", typ: arrow.PrimitiveTypes.Int64, want: columnar.TInt64,
			app: func(b array.Builder, i int) { b.(*array.Int64Builder).Append(int64(i)) },
			val: i64(columnar.TInt64, func(i int) int64 { return int64(i) })},
		{name: "b", typ: arrow.FixedWidthTypes.Boolean, nullable: true, want: columnar.TBool,
			app: func(b array.Builder, i int) { b.(*array.BooleanBuilder).Append(i%3 == 0) },
			val: func(i int) columnar.Value { return columnar.BoolValue(i%3 == 0) }},
		{name: "i8", typ: arrow.PrimitiveTypes.Int8, want: columnar.TInt8,
			app: func(b array.Builder, i int) { b.(*array.Int8Builder).Append(int8(i%256 - 128)) },
			val: i64(columnar.TInt8, func(i int) int64 { return int64(i%256 - 128) })},
		{name: "i16", typ: arrow.PrimitiveTypes.Int16, nullable: true, want: columnar.TInt16,
			app: func(b array.Builder, i int) { b.(*array.Int16Builder).Append(int16(i*7 - 3000)) },
			val: i64(columnar.TInt16, func(i int) int64 { return int64(i*7 - 3000) })},
		{name: "i32", typ: arrow.PrimitiveTypes.Int32, want: columnar.TInt32,
			app: func(b array.Builder, i int) { b.(*array.Int32Builder).Append(int32(i*100003 - 50000000)) },
			val: i64(columnar.TInt32, func(i int) int64 { return int64(i*100003 - 50000000) })},
		{name: "u8", typ: arrow.PrimitiveTypes.Uint8, want: columnar.TUint8,
			app: func(b array.Builder, i int) { b.(*array.Uint8Builder).Append(uint8(i % 256)) },
			val: i64(columnar.TUint8, func(i int) int64 { return int64(i % 256) })},
		{name: "u16", typ: arrow.PrimitiveTypes.Uint16, want: columnar.TUint16,
			app: func(b array.Builder, i int) { b.(*array.Uint16Builder).Append(uint16(i * 61)) },
			val: i64(columnar.TUint16, func(i int) int64 { return int64(uint16(i * 61)) })},
		{name: "u32", typ: arrow.PrimitiveTypes.Uint32, nullable: true, want: columnar.TUint32,
			app: func(b array.Builder, i int) { b.(*array.Uint32Builder).Append(math.MaxUint32 - uint32(i)) },
			val: i64(columnar.TUint32, func(i int) int64 { return math.MaxUint32 - int64(i) })},
		{name: "u64", typ: arrow.PrimitiveTypes.Uint64, want: columnar.TUint64,
			app: func(b array.Builder, i int) { b.(*array.Uint64Builder).Append(1<<63 + uint64(i)) },
			val: func(i int) columnar.Value { return columnar.UintValue(1<<63 + uint64(i)) }},
		{name: "f32", typ: arrow.PrimitiveTypes.Float32, want: columnar.TFloat32,
			app: func(b array.Builder, i int) { b.(*array.Float32Builder).Append(float32(i)*0.5 - 100) },
			val: func(i int) columnar.Value { return columnar.FloatValue(columnar.TFloat32, float64(i)*0.5-100) }},
		{name: "f64", typ: arrow.PrimitiveTypes.Float64, nullable: true, want: columnar.TFloat64,
			app: func(b array.Builder, i int) { b.(*array.Float64Builder).Append(float64(i) / 3) },
			val: func(i int) columnar.Value { return columnar.FloatValue(columnar.TFloat64, float64(i)/3) }},
		{name: "s", typ: arrow.BinaryTypes.String, nullable: true, want: columnar.TVarchar,
			app: func(b array.Builder, i int) { b.(*array.StringBuilder).Append(fmt.Sprintf("str_%d", i*i%1000)) },
			val: func(i int) columnar.Value { return columnar.StringValue(fmt.Sprintf("str_%d", i*i%1000)) }},
		{name: "bin", typ: arrow.BinaryTypes.Binary, want: columnar.TBlob,
			app: func(b array.Builder, i int) { b.(*array.BinaryBuilder).Append([]byte{byte(i), byte(i >> 8), 0, 255}) },
			val: func(i int) columnar.Value {
				return columnar.Value{Type: columnar.TBlob, S: string([]byte{byte(i), byte(i >> 8), 0, 255})}
			}},
		{name: "fsb", typ: &arrow.FixedSizeBinaryType{ByteWidth: 3}, nullable: true, want: columnar.TBlob,
			app: func(b array.Builder, i int) { b.(*array.FixedSizeBinaryBuilder).Append([]byte{byte(i), 1, 2}) },
			val: func(i int) columnar.Value {
				return columnar.Value{Type: columnar.TBlob, S: string([]byte{byte(i), 1, 2})}
			}},
		{name: "d", typ: arrow.FixedWidthTypes.Date32, want: columnar.TDate,
			app: func(b array.Builder, i int) { b.(*array.Date32Builder).Append(arrow.Date32(i - 500)) },
			val: i64(columnar.TDate, func(i int) int64 { return int64(i - 500) })},
		// A zone makes the column isAdjustedToUTC: an instant, TIMESTAMPTZ as in DuckDB.
		{name: "tsms", typ: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, want: columnar.TTimestampTZ,
			app: func(b array.Builder, i int) {
				b.(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000 + int64(i)*1001))
			},
			val: i64(columnar.TTimestampTZ, func(i int) int64 { return (1_700_000_000_000 + int64(i)*1001) * 1000 })},
		{name: "tsus", typ: &arrow.TimestampType{Unit: arrow.Microsecond}, nullable: true, want: columnar.TTimestamp,
			app: func(b array.Builder, i int) {
				b.(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 86_400_000_001))
			},
			val: i64(columnar.TTimestamp, func(i int) int64 { return int64(i) * 86_400_000_001 })},
		{name: "tsns", typ: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, want: columnar.TTimestampTZ,
			app: func(b array.Builder, i int) {
				b.(*array.TimestampBuilder).Append(arrow.Timestamp(-int64(i) * 1_234_567))
			},
			val: i64(columnar.TTimestampTZ, func(i int) int64 {
				// floor(-i*1234567 / 1000)
				ns := -int64(i) * 1_234_567
				return int64(math.Floor(float64(ns) / 1000))
			})},
		{name: "t32", typ: arrow.FixedWidthTypes.Time32ms, want: columnar.TTime,
			app: func(b array.Builder, i int) { b.(*array.Time32Builder).Append(arrow.Time32(i*1000 + 7)) },
			val: i64(columnar.TTime, func(i int) int64 { return int64(i*1000+7) * 1000 })},
		{name: "t64", typ: arrow.FixedWidthTypes.Time64us, want: columnar.TTime,
			app: func(b array.Builder, i int) { b.(*array.Time64Builder).Append(arrow.Time64(i * 13)) },
			val: i64(columnar.TTime, func(i int) int64 { return int64(i * 13) })},
		{name: "dec", typ: &arrow.Decimal128Type{Precision: 10, Scale: 2}, nullable: true, want: columnar.DecimalType(10, 2),
			app: func(b array.Builder, i int) {
				b.(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i*123 - 5000)))
			},
			val: i64(columnar.DecimalType(10, 2), func(i int) int64 { return int64(i*123 - 5000) })},
		{name: "dec38", typ: &arrow.Decimal128Type{Precision: 30, Scale: 3}, want: columnar.DecimalType(30, 3),
			app: func(b array.Builder, i int) { b.(*array.Decimal128Builder).Append(decimal128.FromBigInt(dec38(i))) },
			val: func(i int) columnar.Value {
				v, _ := columnar.WideFromBig(columnar.DecimalType(30, 3), dec38(i))
				return v
			}},
	}
}

// writeArrow writes rows [first, first+n) of cols with arrow-go's own
// writer, rowGroup rows per row group. extra adds writer properties.
func writeArrow(t testing.TB, path string, cols []tcol, first, n, rowGroup int, nested bool, extra ...parquet.WriterProperty) {
	t.Helper()
	fields := make([]arrow.Field, 0, len(cols)+1)
	for _, c := range cols {
		fields = append(fields, arrow.Field{Name: c.name, Type: c.typ, Nullable: c.nullable})
	}
	if nested {
		fields = append(fields, arrow.Field{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true})
	}
	sc := arrow.NewSchema(fields, nil)
	props := append([]parquet.WriterProperty{
		parquet.WithMaxRowGroupLength(int64(rowGroup)),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDataPageSize(4096), // several pages per chunk
	}, extra...)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fw, err := pqarrow.NewFileWriter(sc, f, parquet.NewWriterProperties(props...), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.DefaultAllocator
	for start := first; start < first+n; start += rowGroup {
		end := min(start+rowGroup, first+n)
		arrs := make([]arrow.Array, 0, len(fields))
		for _, c := range cols {
			b := array.NewBuilder(mem, c.typ)
			for i := start; i < end; i++ {
				if c.nullable && isNull(i) {
					b.AppendNull()
				} else {
					c.app(b, i)
				}
			}
			arrs = append(arrs, b.NewArray())
			b.Release()
		}
		if nested {
			lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
			vb := lb.ValueBuilder().(*array.Int32Builder)
			for i := start; i < end; i++ {
				lb.Append(true)
				for k := 0; k < i%3; k++ {
					vb.Append(int32(k))
				}
			}
			arrs = append(arrs, lb.NewArray())
			lb.Release()
		}
		rec := array.NewRecordBatch(sc, arrs, int64(end-start))
		if err := fw.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		for _, a := range arrs {
			a.Release()
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// readAll scans the table and returns one row of Values per row, in the
// order the scan produced them.
func readAll(t testing.TB, tb *Table, spec index.ScanSpec) [][]columnar.Value {
	t.Helper()
	r, err := tb.Scan(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return columnartest.MustReadAll(t, r)
}

// allColumns returns 0..n-1.
func allColumns(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// sameValue compares two values, floats with a relative tolerance of one
// ulp-ish (wide decimals are rounded twice).
func sameValue(a, b columnar.Value) bool {
	if a.Null || b.Null {
		return a.Null == b.Null && a.Type == b.Type
	}
	if a.Type != b.Type {
		return false
	}
	if a.Type.Phys() == columnar.PhysFloat {
		return a.F == b.F || math.Abs(a.F-b.F) <= 1e-15*math.Abs(b.F)
	}
	return a.I == b.I && a.S == b.S
}

// writeInt96 writes cols with timestamps in the legacy INT96 layout, the
// way Spark and Impala do.
func writeInt96(t testing.TB, path string, cols []tcol, n int) {
	t.Helper()
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: c.typ, Nullable: c.nullable}
	}
	sc := arrow.NewSchema(fields, nil)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fw, err := pqarrow.NewFileWriter(sc, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(128)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithDeprecatedInt96Timestamps(true)))
	if err != nil {
		t.Fatal(err)
	}
	arrs := make([]arrow.Array, len(cols))
	for k, c := range cols {
		b := array.NewBuilder(memory.DefaultAllocator, c.typ)
		for i := 0; i < n; i++ {
			if c.nullable && isNull(i) {
				b.AppendNull()
			} else {
				c.app(b, i)
			}
		}
		arrs[k] = b.NewArray()
	}
	rec := array.NewRecordBatch(sc, arrs, int64(n))
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// makeTempDir makes a directory that outlives one benchmark's b.TempDir, so
// the benchmark file is written once per process.
func makeTempDir() (string, error) { return os.MkdirTemp("", "b2sql-parquet-bench-") }
