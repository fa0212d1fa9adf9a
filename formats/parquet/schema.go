package parquet

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/columnar"
)

// kind selects the decode loop of a column: the physical type read and the
// conversion applied on the way into the columnar payload. It is chosen once
// per column at Open, never per value.
type kind uint8

const (
	kBool      kind = iota // BOOLEAN → Bools
	kInt32                 // INT32 → Ints (sign-extended, times mul)
	kUint32                // INT32 holding UINT32 → Ints (zero-extended)
	kInt64                 // INT64 → Ints (times mul, floor-divided by div)
	kUint64                // INT64 holding UINT64 → Uints
	kFloat32               // FLOAT → Floats (widened exactly)
	kFloat64               // DOUBLE → Floats
	kInt96                 // INT96 legacy timestamp → Ints (µs)
	kBytes                 // BYTE_ARRAY → Bytes
	kFixed                 // FIXED_LEN_BYTE_ARRAY → Bytes
	kDecBytes              // BYTE_ARRAY/FLBA big-endian decimal (p ≤ 18) → Ints
	kDecBytesF             // BYTE_ARRAY/FLBA big-endian decimal (p > 38) → Floats
	kHalf                  // FLBA(2) FLOAT16, little-endian IEEE half → Floats (a FLOAT, as DuckDB reads it)
	kDecBytesW             // BYTE_ARRAY/FLBA big-endian decimal (19 ≤ p ≤ 38) → 16-byte keys (columnar/int128.go)
)

// column describes one exposed (flat) column of the table.
type column struct {
	field columnar.Field
	leaf  int // index of the leaf column in the Parquet schema
	kind  kind
	phys  parquet.Type
	// mul and div convert time units to microseconds (ms: mul 1000; ns: div
	// 1000). Both are 1 for plain integers.
	mul, div int64
	// tz marks a TIME with isAdjustedToUTC, read as TIME WITH TIME ZONE at
	// +00 as DuckDB reads it: the decoder turns its microseconds into
	// TIMETZ keys (decoder.read), statistics too (bound).
	tz     bool
	scale  int   // decimal scale, for kDecBytesF
	maxDef int16 // 0 for REQUIRED columns, 1 for OPTIONAL ones
	// nested is set for a LIST, MAP or STRUCT column (leaf is then -1):
	// it is read through arrow-go's level decoding (nested_read.go).
	nested *nestedCol
	// key is set on a hidden column holding a field of a STRUCT column
	// (fields.go): its FieldColumn key.
	key string
}

// mapSchema converts the Parquet schema into exposed columns: each nested
// top-level field is one LIST, MAP or STRUCT column; FLOAT16 leaves and
// nested fields arrow-go cannot map are left out (returned as skipped, by
// dotted path). A schema that leaves nothing to expose is an error saying
// why: a table of no columns would only puzzle the binder.
//
// geo maps the top-level BYTE_ARRAY columns a GeoParquet "geo" entry
// declares WKB to their CRS (geoParquetCRS): they read as GEOMETRY.
func mapSchema(sc *schema.Schema, geo map[string]string) (cols []column, skipped, notes []string, err error) {
	var why []string // per top-level column left out: name and type
	seen := map[schema.Node]bool{}
	nested := map[schema.Node]bool{} // roots read as nested columns
	manifest, merr := pqarrow.NewSchemaManifest(sc, nil, &pqarrow.ArrowReadProperties{})
	var refused map[int]error
	if merr != nil {
		// One field arrow-go cannot map fails the whole manifest: map the
		// fields one by one, so that only the refused ones are left out.
		manifest, _, refused = fieldManifests(sc)
	}
	for i := 0; i < sc.NumColumns(); i++ {
		leaf := sc.Column(i)
		root := sc.ColumnRoot(i)
		if nested[root] {
			continue
		}
		flat := root == leaf.SchemaNode() && leaf.MaxRepetitionLevel() == 0 && leaf.MaxDefinitionLevel() <= 1
		if !flat && !seen[root] {
			field := sc.Root().FieldIndexByField(root)
			c, err := nestedColumn(sc, manifest, field)
			if e := refused[field]; e != nil {
				err = e
			}
			ok := err == nil
			if !ok {
				c, ok = optionalKeyMap(sc, root, field)
			}
			if ok {
				nested[root] = true
				cols = append(cols, c)
				continue
			}
			if e := refused[field]; e != nil && !seen[root] {
				notes = append(notes, fmt.Sprintf("column %q (%s) is left out: %v", root.Name(), describeSkipped(root), e))
			}
		}
		if !flat {
			skipped = append(skipped, leaf.Path())
			if !seen[root] {
				seen[root] = true
				why = append(why, fmt.Sprintf("%q (%s)", root.Name(), describeSkipped(root)))
			}
			continue
		}
		c, err := mapColumn(leaf)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("column %q: %w", leaf.Name(), err)
		}
		if crs, ok := geo[leaf.Name()]; ok && c.field.Type == columnar.TBlob && c.kind == kBytes {
			c.field.Type = columnar.GeometryCRS(crs)
		}
		c.leaf = i
		c.maxDef = leaf.MaxDefinitionLevel()
		c.field.Name = leaf.Name()
		c.field.Nullable = c.maxDef > 0
		cols = append(cols, c)
	}
	switch {
	case len(cols) > 0:
		return cols, skipped, notes, nil
	case sc.NumColumns() == 0:
		return nil, nil, nil, fmt.Errorf("%w: the file's schema has no columns", ErrUnsupported)
	}
	if len(why) > maxNamed {
		why = append(why[:maxNamed], fmt.Sprintf("and %d more", len(why)-maxNamed))
	}
	return nil, nil, nil, fmt.Errorf("%w: no column of the file is of a type b2sql reads: %s", ErrUnsupported, strings.Join(why, ", "))
}

// maxNamed is how many unreadable columns the error of a file without a
// readable one names.
const maxNamed = 8

// describeSkipped names the type of a top-level column the table leaves
// out: LIST, MAP, STRUCT, a repeated field, or FLOAT16.
func describeSkipped(n schema.Node) string {
	kind := "STRUCT"
	switch n.LogicalType().(type) {
	case schema.ListLogicalType:
		kind = "LIST"
	case schema.MapLogicalType:
		kind = "MAP"
	case schema.Float16LogicalType:
		kind = "FLOAT16"
	default:
		switch n.ConvertedType() {
		case schema.ConvertedTypes.List:
			kind = "LIST"
		case schema.ConvertedTypes.Map, schema.ConvertedTypes.MapKeyValue:
			kind = "MAP"
		}
		if p, ok := n.(*schema.PrimitiveNode); ok {
			kind = p.PhysicalType().String()
		}
	}
	if n.RepetitionType() == parquet.Repetitions.Repeated {
		return "repeated " + kind
	}
	return kind
}

// mapColumn picks the SQL type and decode kind of one leaf column from its
// physical type and its logical type (or, for files written before logical
// types existed, its converted type).
func mapColumn(leaf *schema.Column) (column, error) {
	c := column{phys: leaf.PhysicalType(), mul: 1, div: 1}
	set := func(t columnar.Type, k kind) (column, error) {
		c.field.Type = t
		c.kind = k
		return c, nil
	}
	lt := leaf.LogicalType()
	// Only a real TIMESTAMP logical type says isAdjustedToUTC: a legacy
	// TIMESTAMP_MICROS converted type reads as a local TIMESTAMP, as in
	// DuckDB. arrow-go makes a footer's converted type a logical type
	// marked as such, with isAdjustedToUTC set.
	logical := lt != nil && lt.IsValid() && !lt.IsNone()
	if ts, ok := lt.(schema.TimestampLogicalType); ok && ts.IsFromConvertedType() {
		logical = false
	}
	if !logical {
		lt = convertedToLogical(leaf)
	}
	switch c.phys {
	case parquet.Types.Boolean:
		return set(columnar.TBool, kBool)
	case parquet.Types.Int96:
		return set(columnar.TTimestamp, kInt96)
	case parquet.Types.Float:
		return set(columnar.TFloat32, kFloat32)
	case parquet.Types.Double:
		return set(columnar.TFloat64, kFloat64)
	case parquet.Types.Int32:
		switch t := lt.(type) {
		case schema.IntLogicalType:
			if t.IsSigned() {
				return set(intType(t.BitWidth(), true), kInt32)
			}
			return set(intType(t.BitWidth(), false), kUint32)
		case schema.DecimalLogicalType:
			if err := checkDecimal(t, 9); err != nil {
				return c, err
			}
			return set(columnar.DecimalType(int(t.Precision()), int(t.Scale())), kInt32)
		case schema.DateLogicalType:
			return set(columnar.TDate, kInt32)
		case schema.TimeLogicalType:
			c.mul = 1000 // TIME(MILLIS) is the only INT32 time
			if logical && t.IsAdjustedToUTC() {
				c.tz = true
				return set(columnar.TTimeTZ, kInt32)
			}
			return set(columnar.TTime, kInt32)
		}
		return set(columnar.TInt32, kInt32)
	case parquet.Types.Int64:
		switch t := lt.(type) {
		case schema.IntLogicalType:
			if !t.IsSigned() {
				return set(columnar.TUint64, kUint64)
			}
			return set(intType(t.BitWidth(), true), kInt64)
		case schema.DecimalLogicalType:
			if err := checkDecimal(t, 18); err != nil {
				return c, err
			}
			return set(columnar.DecimalType(int(t.Precision()), int(t.Scale())), kInt64)
		case schema.TimestampLogicalType:
			c.mul, c.div = unitFactors(t.TimeUnit())
			if logical && t.IsAdjustedToUTC() {
				return set(columnar.TTimestampTZ, kInt64) // an instant
			}
			if t.TimeUnit() == schema.TimeUnitNanos {
				// As DuckDB: local NANOS keep their nanoseconds (TIMESTAMP_NS);
				// MILLIS read as TIMESTAMP.
				c.mul, c.div = 1, 1
				return set(columnar.TTimestampNS, kInt64)
			}
			return set(columnar.TTimestamp, kInt64)
		case schema.TimeLogicalType:
			c.mul, c.div = unitFactors(t.TimeUnit())
			if logical && t.IsAdjustedToUTC() {
				c.tz = true
				return set(columnar.TTimeTZ, kInt64)
			}
			return set(columnar.TTime, kInt64)
		}
		return set(columnar.TInt64, kInt64)
	case parquet.Types.ByteArray, parquet.Types.FixedLenByteArray:
		raw := kBytes
		if c.phys == parquet.Types.FixedLenByteArray {
			raw = kFixed
			if leaf.TypeLength() <= 0 {
				return c, corruptf("fixed_len_byte_array of length %d", leaf.TypeLength())
			}
		}
		switch t := lt.(type) {
		case schema.Float16LogicalType:
			if raw == kFixed && leaf.TypeLength() == 2 {
				return set(columnar.TFloat32, kHalf)
			}
		case schema.UUIDLogicalType:
			if raw == kFixed && leaf.TypeLength() == columnar.UUIDSize {
				return set(columnar.TUuid, kFixed) // big-endian, as held
			}
		case schema.StringLogicalType, schema.EnumLogicalType, schema.JSONLogicalType:
			if raw == kBytes {
				return set(columnar.TVarchar, kBytes)
			}
		case schema.GeometryLogicalType:
			// WKB, kept as it is; shown as WKT (DuckDB 1.5 reads both as
			// GEOMETRY, with the CRS it recognizes: geocrs.go).
			if raw == kBytes {
				return set(columnar.GeometryCRS(geoCRS(t.Crs)), kBytes)
			}
		case schema.GeographyLogicalType:
			if raw == kBytes {
				return set(columnar.GeometryCRS(geoCRS(t.Crs)), kBytes)
			}
		case schema.DecimalLogicalType:
			if err := checkDecimal(t, 76); err != nil {
				return c, err
			}
			c.scale = int(t.Scale())
			if t.Precision() <= 18 {
				return set(columnar.DecimalType(int(t.Precision()), int(t.Scale())), kDecBytes)
			}
			if t.Precision() <= columnar.MaxDecimal {
				return set(columnar.DecimalType(int(t.Precision()), int(t.Scale())), kDecBytesW)
			}
			return set(columnar.TFloat64, kDecBytesF) // as DuckDB: past 38 digits, DOUBLE
		}
		return set(columnar.TBlob, raw)
	}
	return c, corruptf("physical type %d is not a Parquet type", int(c.phys))
}

// checkDecimal rejects precisions and scales no writer produces, so that
// later arithmetic on them (10^scale, narrowing to uint8) stays in range.
func checkDecimal(t schema.DecimalLogicalType, maxPrec int32) error {
	p, s := t.Precision(), t.Scale()
	if p < 1 || p > maxPrec || s < 0 || s > p {
		return corruptf("DECIMAL(%d,%d) does not fit its physical type", p, s)
	}
	return nil
}

// unitFactors returns the multiplier and floor divisor from a Parquet time
// unit to microseconds.
func unitFactors(u schema.TimeUnitType) (mul, div int64) {
	switch u {
	case schema.TimeUnitMillis:
		return 1000, 1
	case schema.TimeUnitNanos:
		return 1, 1000
	}
	return 1, 1
}

func intType(bits int8, signed bool) columnar.Type {
	switch {
	case bits == 8 && signed:
		return columnar.TInt8
	case bits == 16 && signed:
		return columnar.TInt16
	case bits == 32 && signed:
		return columnar.TInt32
	case bits == 8:
		return columnar.TUint8
	case bits == 16:
		return columnar.TUint16
	case bits == 32:
		return columnar.TUint32
	case bits == 64 && !signed:
		return columnar.TUint64
	}
	return columnar.TInt64
}

// convertedToLogical derives a logical type from a legacy converted type.
// arrow-go usually does this itself when reading the footer; this covers
// the cases it leaves as NoLogicalType.
func convertedToLogical(leaf *schema.Column) schema.LogicalType {
	node, ok := leaf.SchemaNode().(*schema.PrimitiveNode)
	if !ok {
		return schema.NoLogicalType{}
	}
	ct := leaf.ConvertedType()
	switch ct {
	case schema.ConvertedTypes.UTF8:
		return schema.StringLogicalType{}
	case schema.ConvertedTypes.Enum:
		return schema.EnumLogicalType{}
	case schema.ConvertedTypes.JSON:
		return schema.JSONLogicalType{}
	case schema.ConvertedTypes.Date:
		return schema.DateLogicalType{}
	case schema.ConvertedTypes.Decimal:
		dm := node.DecimalMetadata()
		return schema.NewDecimalLogicalType(dm.Precision, dm.Scale)
	case schema.ConvertedTypes.TimestampMillis:
		return schema.NewTimestampLogicalType(true, schema.TimeUnitMillis)
	case schema.ConvertedTypes.TimestampMicros:
		return schema.NewTimestampLogicalType(true, schema.TimeUnitMicros)
	case schema.ConvertedTypes.TimeMillis:
		return schema.NewTimeLogicalType(true, schema.TimeUnitMillis)
	case schema.ConvertedTypes.TimeMicros:
		return schema.NewTimeLogicalType(true, schema.TimeUnitMicros)
	case schema.ConvertedTypes.Int8:
		return schema.NewIntLogicalType(8, true)
	case schema.ConvertedTypes.Int16:
		return schema.NewIntLogicalType(16, true)
	case schema.ConvertedTypes.Int32:
		return schema.NewIntLogicalType(32, true)
	case schema.ConvertedTypes.Int64:
		return schema.NewIntLogicalType(64, true)
	case schema.ConvertedTypes.Uint8:
		return schema.NewIntLogicalType(8, false)
	case schema.ConvertedTypes.Uint16:
		return schema.NewIntLogicalType(16, false)
	case schema.ConvertedTypes.Uint32:
		return schema.NewIntLogicalType(32, false)
	case schema.ConvertedTypes.Uint64:
		return schema.NewIntLogicalType(64, false)
	}
	return schema.NoLogicalType{}
}
