package columnar

import "fmt"

// TypeID names a SQL type. The physical layout a vector uses for each one is
// given by Phys: many logical types share one physical representation so that
// kernels are written once per representation, not once per SQL type.
type TypeID uint8

const (
	Null TypeID = iota // the type of an untyped NULL literal
	Bool
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float32
	Float64
	Decimal // fixed point, int64 scaled by 10^Scale (precision ≤ 18)
	Varchar
	Blob
	Date      // days since 1970-01-01
	Timestamp // microseconds since 1970-01-01 00:00:00 UTC
	Interval  // months, days, microseconds (interval.go), held as byte strings
	Time      // time of day: microseconds since midnight, 0 ..= 24:00:00 (see timeofday.go)
	List      // a variable-length list of one element type (nested.go)
	Struct    // named fields, each of its own type (nested.go)
	Map       // a list of key/value entries (nested.go)
	// TimestampTZ is an instant: microseconds since 1970-01-01 00:00:00
	// UTC, shown, cast to local types and split into parts in a time zone
	// (the session's TimeZone setting, timezone.go).
	TimestampTZ
	Hugeint    // 128-bit signed integer, 16 order-preserving bytes (int128.go)
	Uhugeint   // 128-bit unsigned integer, 16 bytes (int128.go)
	Decimal128 // DECIMAL(19..38): its unscaled value as a Hugeint's bytes (int128.go)
	// TimestampS, TimestampMS and TimestampNS are DuckDB's TIMESTAMP_S,
	// TIMESTAMP_MS and TIMESTAMP_NS: a local date and time as seconds,
	// milliseconds or nanoseconds since 1970-01-01 00:00:00
	// (timestamp_unit.go). Functions read them as TIMESTAMP.
	TimestampS
	TimestampMS
	TimestampNS
	Uuid // a UUID: its 16 bytes, big-endian, so that bytes order as DuckDB orders UUIDs (uuid.go)
	// TimeTZ is TIME WITH TIME ZONE: a time of day and its UTC offset,
	// held as a key that orders as DuckDB orders them (timetz.go).
	TimeTZ
	// Enum is an ENUM: a value out of a fixed, ordered list (Type.Dict),
	// held as its position in the list (enum.go).
	Enum
	// Geometry is DuckDB's GEOMETRY: a geometry held as its well-known
	// binary, shown as its well-known text (geometry.go).
	Geometry
	// Bit is DuckDB's BIT (BITSTRING): a string of bits held as DuckDB
	// holds it, a padding byte then the bits (bit.go).
	Bit
)

// Phys is the physical representation of a vector's payload.
type Phys uint8

const (
	PhysNone   Phys = iota // Null: no payload
	PhysBool               // []bool
	PhysInt                // []int64: signed ints, uint8..uint32, decimal, date, timestamp, time
	PhysUint               // []uint64: uint64
	PhysFloat              // []float64: float32 (widened exactly), float64
	PhysBytes              // [][]byte: varchar, blob, interval (its byte form, interval.go), uuid
	PhysNested             // Starts/Ends and Kids: list, struct, map (nested.go)
)

// Type is a SQL type. Precision and Scale matter only for Decimal; Nest
// only for List, Struct, Map and Enum (interned: equal types share one
// Nest, so Types compare with ==).
type Type struct {
	ID        TypeID
	Precision uint8
	Scale     uint8
	Nest      *Nest
}

// Common types, for brevity at call sites.
var (
	TNull      = Type{ID: Null}
	TBool      = Type{ID: Bool}
	TInt8      = Type{ID: Int8}
	TInt16     = Type{ID: Int16}
	TInt32     = Type{ID: Int32}
	TInt64     = Type{ID: Int64}
	TUint8     = Type{ID: Uint8}
	TUint16    = Type{ID: Uint16}
	TUint32    = Type{ID: Uint32}
	TUint64    = Type{ID: Uint64}
	TFloat32   = Type{ID: Float32}
	TFloat64   = Type{ID: Float64}
	TVarchar   = Type{ID: Varchar}
	TBlob      = Type{ID: Blob}
	TDate      = Type{ID: Date}
	TTimestamp = Type{ID: Timestamp}
	TInterval  = Type{ID: Interval}
	TTime      = Type{ID: Time}
	// TTimestampTZ is TIMESTAMP WITH TIME ZONE.
	TTimestampTZ = Type{ID: TimestampTZ}
	THugeint     = Type{ID: Hugeint}
	TUhugeint    = Type{ID: Uhugeint}
	TTimestampS  = Type{ID: TimestampS}
	TTimestampMS = Type{ID: TimestampMS}
	TTimestampNS = Type{ID: TimestampNS}
	TUuid        = Type{ID: Uuid}
	TTimeTZ      = Type{ID: TimeTZ}
	TGeometry    = Type{ID: Geometry}
	TBit         = Type{ID: Bit}
)

// DecimalType returns DECIMAL(p, s): held in an int64 up to 18 digits,
// in 128 bits (Decimal128) from 19 to 38.
func DecimalType(p, s int) Type {
	if p > MaxDecimal64 {
		return Type{ID: Decimal128, Precision: uint8(p), Scale: uint8(s)}
	}
	return Type{ID: Decimal, Precision: uint8(p), Scale: uint8(s)}
}

// MaxDecimal64 is the widest DECIMAL held in an int64; MaxDecimal the
// widest of all (128 bits), as in DuckDB.
const (
	MaxDecimal64 = 18
	MaxDecimal   = 38
)

// Phys returns the physical representation of t.
func (t Type) Phys() Phys {
	switch t.ID {
	case Null:
		return PhysNone
	case Bool:
		return PhysBool
	case Uint64:
		return PhysUint
	case Float32, Float64:
		return PhysFloat
	case Varchar, Blob, Interval, Hugeint, Uhugeint, Decimal128, Uuid, Geometry, Bit:
		return PhysBytes
	case List, Struct, Map:
		return PhysNested
	default:
		return PhysInt
	}
}

// IsInteger reports whether t is a signed or unsigned integer type.
func (t Type) IsInteger() bool { return t.ID >= Int8 && t.ID <= Uint64 }

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t.ID >= Int8 && t.ID <= Int64 }

// IntBits is the width in bits of an integer type (64 for any other).
func (t Type) IntBits() int {
	switch t.ID {
	case Int8, Uint8:
		return 8
	case Int16, Uint16:
		return 16
	case Int32, Uint32:
		return 32
	}
	return 64
}

// IsFloat reports whether t is FLOAT or DOUBLE.
func (t Type) IsFloat() bool { return t.ID == Float32 || t.ID == Float64 }

// IsNumeric reports whether t takes part in arithmetic.
func (t Type) IsNumeric() bool { return t.IsInteger() || t.IsFloat() || t.ID == Decimal }

// IsString reports whether t is VARCHAR or BLOB.
func (t Type) IsString() bool { return t.ID == Varchar || t.ID == Blob }

// IsTemporal reports whether t is DATE or TIMESTAMP.
func (t Type) IsTemporal() bool { return t.ID == Date || t.ID == Timestamp }

// IntRange returns the inclusive value range of an integer type held in an
// int64 (Uint64 reports the int64 range; callers handle it separately).
func (t Type) IntRange() (lo, hi int64) {
	switch t.ID {
	case Int8:
		return -1 << 7, 1<<7 - 1
	case Int16:
		return -1 << 15, 1<<15 - 1
	case Int32:
		return -1 << 31, 1<<31 - 1
	case Uint8:
		return 0, 1<<8 - 1
	case Uint16:
		return 0, 1<<16 - 1
	case Uint32:
		return 0, 1<<32 - 1
	}
	return -1 << 63, 1<<63 - 1
}

var typeNames = [...]string{
	Null: "NULL", Bool: "BOOLEAN", Int8: "TINYINT", Int16: "SMALLINT", Int32: "INTEGER",
	Int64: "BIGINT", Uint8: "UTINYINT", Uint16: "USMALLINT", Uint32: "UINTEGER",
	Uint64: "UBIGINT", Float32: "FLOAT", Float64: "DOUBLE", Decimal: "DECIMAL",
	Varchar: "VARCHAR", Blob: "BLOB", Date: "DATE", Timestamp: "TIMESTAMP", Interval: "INTERVAL",
	Time: "TIME", TimestampTZ: "TIMESTAMP WITH TIME ZONE", Hugeint: "HUGEINT", Uhugeint: "UHUGEINT",
	TimestampS: "TIMESTAMP_S", TimestampMS: "TIMESTAMP_MS", TimestampNS: "TIMESTAMP_NS", Uuid: "UUID",
	TimeTZ: "TIME WITH TIME ZONE", Geometry: "GEOMETRY", Bit: "BIT",
}

// String returns the SQL spelling of t, as DuckDB prints it.
func (t Type) String() string {
	if t.ID == Decimal || t.ID == Decimal128 {
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale)
	}
	if t.Nest != nil {
		return t.Nest.name
	}
	if int(t.ID) < len(typeNames) {
		return typeNames[t.ID]
	}
	return fmt.Sprintf("TYPE(%d)", t.ID)
}

// Field is one named, typed column of a schema.
type Field struct {
	Name     string
	Type     Type
	Nullable bool
}

// Schema is an ordered list of fields.
type Schema []Field

// Index returns the position of the field named name (case-insensitive), or -1.
func (s Schema) Index(name string) int {
	for i, f := range s {
		if equalFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// Names returns the field names in order.
func (s Schema) Names() []string {
	out := make([]string, len(s))
	for i, f := range s {
		out[i] = f.Name
	}
	return out
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
