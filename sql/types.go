package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// Typing decisions (DuckDB semantics where the executor's vocabulary allows):
//
//   - Integer literals are INTEGER when they fit, else BIGINT, else
//     HUGEINT, else UHUGEINT, else DOUBLE. Literals with a point are
//     DECIMAL(digits, fraction digits) as in DuckDB (1.5 is DECIMAL(2,1), so
//     0.1 + 0.2 = 0.3), DOUBLE past 38 digits; literals with an exponent
//     (1e3) are DOUBLE.
//   - A numeric literal compared with a column (=, <, IN, BETWEEN, …) takes
//     the column's type when its value is exactly representable there (an
//     integer literal compared with a DECIMAL counts as DECIMAL(its
//     digits, 0)); a string literal compared with or combined with a
//     non-string value takes that value's type (cast at bind time; "could
//     not cast" otherwise).
//   - Numeric supertypes: wider integer of the same signedness; mixed
//     signedness takes the next wider signed type (UINTEGER vs INTEGER →
//     BIGINT, UBIGINT vs BIGINT → HUGEINT); UHUGEINT vs signed → DOUBLE; any
//     FLOAT/DOUBLE → DOUBLE (FLOAT only with FLOAT, small integers or
//     HUGEINT); DECIMAL vs integer → DECIMAL wide enough (BIGINT counts 19
//     digits, HUGEINT 38), DOUBLE when that needs more than 38; DECIMAL vs
//     DOUBLE → DOUBLE. DECIMALs of up to 18 digits are int64s, wider ones
//     (and HUGEINT, UHUGEINT) 128-bit (columnar/int128.go).
//   - Arithmetic: + - on DECIMALs stays DECIMAL (common scale, one more
//     digit for the carry, at most 38 with an overflow check);
//     DECIMAL(p1,s1) * DECIMAL(p2,s2) is DECIMAL(p1+p2, s1+s2), at most 38
//     digits, but two 64-bit operands with s1+s2 < 18 keep DuckDB's int64
//     product, capped at 18 digits with an overflow check; DOUBLE past
//     scale 38; % on DECIMALs is exact, in their common DECIMAL type; / is
//     always DOUBLE division; // of integers is integer division, of floats
//     and DECIMALs DOUBLE division. By zero (DuckDB's results): / gives
//     ±inf or nan, // and % of integers and DECIMALs NULL, // of floats
//     NULL, % of floats nan. round(x, d), floor and ceil of DECIMAL(p,s)
//     are DECIMAL(p,d) (d = 0 for floor/ceil), by a cast of the rounded
//     value.
//   - TIMESTAMP WITH TIME ZONE is the common type of itself, TIMESTAMP and
//     DATE; casts and calendar functions between it and local types use the
//     session's TimeZone (bind_timezone.go).
//   - SUM of integers is HUGEINT and SUM(DECIMAL(p,s)) DECIMAL(38,s), as in
//     DuckDB, exact: BIGINT, UBIGINT and DECIMAL(≤18) add in int64s until a
//     group would overflow, then in 128 bits (executor aggstate_widesum.go);
//     narrower integers in int64s, widened (sumWiden); HUGEINT and wide
//     DECIMALs add 32-bit limbs (wideSum). SUM(UHUGEINT) and SUM of
//     floats are DOUBLE; AVG DOUBLE; COUNT BIGINT; MIN/MAX the input type. Aggregate arguments are not cast: the executor reads the
//     argument type.

// maxDecimal is the widest DECIMAL held in an int64; wider ones, up to
// columnar.MaxDecimal (38) digits, are 128-bit (columnar/int128.go).
const maxDecimal = columnar.MaxDecimal64

// simpleTypes are the type names without parameters, upper-cased, as
// DuckDB spells them and their aliases (duckdb_types() lists them too).
var simpleTypes = map[string]columnar.Type{
	"BOOLEAN": columnar.TBool, "BOOL": columnar.TBool, "LOGICAL": columnar.TBool,
	"TINYINT": columnar.TInt8, "INT1": columnar.TInt8,
	"SMALLINT": columnar.TInt16, "INT2": columnar.TInt16, "SHORT": columnar.TInt16, "INT16": columnar.TInt16,
	"INTEGER": columnar.TInt32, "INT": columnar.TInt32, "INT4": columnar.TInt32, "SIGNED": columnar.TInt32, "INTEGRAL": columnar.TInt32, "INT32": columnar.TInt32,
	"BIGINT": columnar.TInt64, "INT8": columnar.TInt64, "LONG": columnar.TInt64, "OID": columnar.TInt64, "INT64": columnar.TInt64,
	"UTINYINT": columnar.TUint8, "USMALLINT": columnar.TUint16, "UINTEGER": columnar.TUint32, "UBIGINT": columnar.TUint64,
	"UINT8": columnar.TUint8, "UINT16": columnar.TUint16, "UINT32": columnar.TUint32, "UINT64": columnar.TUint64,
	"HUGEINT": columnar.THugeint, "INT128": columnar.THugeint, "UHUGEINT": columnar.TUhugeint, "UINT128": columnar.TUhugeint,
	"FLOAT": columnar.TFloat32, "REAL": columnar.TFloat32, "FLOAT4": columnar.TFloat32,
	"DOUBLE": columnar.TFloat64, "FLOAT8": columnar.TFloat64, "DOUBLE PRECISION": columnar.TFloat64,
	"VARCHAR": columnar.TVarchar, "TEXT": columnar.TVarchar, "STRING": columnar.TVarchar, "CHAR": columnar.TVarchar, "BPCHAR": columnar.TVarchar, "NVARCHAR": columnar.TVarchar,
	"CHARACTER VARYING": columnar.TVarchar, "CHARACTER": columnar.TVarchar,
	"BLOB": columnar.TBlob, "BYTEA": columnar.TBlob, "BINARY": columnar.TBlob, "VARBINARY": columnar.TBlob,
	"DATE": columnar.TDate, "TIMESTAMP": columnar.TTimestamp, "DATETIME": columnar.TTimestamp,
	"TIMESTAMP WITHOUT TIME ZONE": columnar.TTimestamp, "TIMESTAMPTZ": columnar.TTimestampTZ,
	"TIMESTAMP WITH TIME ZONE": columnar.TTimestampTZ,
	"INTERVAL":                 columnar.TInterval, "TIME": columnar.TTime,
	"TIMESTAMP_S": columnar.TTimestampS, "TIMESTAMP_MS": columnar.TTimestampMS,
	"TIMESTAMP_US": columnar.TTimestamp, "TIMESTAMP_NS": columnar.TTimestampNS,
	"UUID": columnar.TUuid, "GUID": columnar.TUuid, "GEOMETRY": columnar.TGeometry,
	"TIMETZ": columnar.TTimeTZ, "TIME WITH TIME ZONE": columnar.TTimeTZ,
	"BIT": columnar.TBit, "BITSTRING": columnar.TBit,
}

// parseTypeName maps a SQL type name (and its parameters) to a type. words
// are the upper-cased name words (e.g. ["DOUBLE", "PRECISION"]); params the
// parenthesized integers.
func parseTypeName(words []string, params []int) (columnar.Type, error) {
	name := strings.Join(words, " ")
	if (name == "TIMESTAMP" || name == "DATETIME") && len(params) == 1 {
		// TIMESTAMP(p): DuckDB picks the unit that holds p fractional digits.
		t, ok := columnar.TimestampUnitType(params[0])
		if !ok {
			return t, fmt.Errorf("TIMESTAMP only supports until nano-second precision (9)")
		}
		return t, nil
	}
	if t, ok := simpleTypes[name]; ok {
		if len(params) > 0 && t.ID != columnar.Varchar && t.ID != columnar.Blob {
			return t, fmt.Errorf("type %s takes no parameters", name)
		}
		return t, nil
	}
	if name == "DECIMAL" || name == "NUMERIC" || name == "DEC" {
		p, s := maxDecimal, 3 // DuckDB's default DECIMAL is (18,3)
		switch len(params) {
		case 0:
		case 1:
			p, s = params[0], 0
		case 2:
			p, s = params[0], params[1]
		default:
			return columnar.Type{}, fmt.Errorf("DECIMAL takes at most two parameters")
		}
		if p < 1 || p > columnar.MaxDecimal {
			return columnar.Type{}, fmt.Errorf("DECIMAL precision %d is out of range 1..%d", p, columnar.MaxDecimal)
		}
		if s < 0 || s > p {
			return columnar.Type{}, fmt.Errorf("DECIMAL scale %d is out of range 0..%d", s, p)
		}
		return columnar.DecimalType(p, s), nil
	}
	return columnar.Type{}, fmt.Errorf("unknown type %q", strings.ToUpper(name))
}

// intRank orders signed integer types by width.
func intRank(id columnar.TypeID) int {
	switch id {
	case columnar.Int8, columnar.Uint8:
		return 1
	case columnar.Int16, columnar.Uint16:
		return 2
	case columnar.Int32, columnar.Uint32:
		return 3
	}
	return 4
}

var signedByRank = [...]columnar.Type{1: columnar.TInt8, 2: columnar.TInt16, 3: columnar.TInt32, 4: columnar.TInt64}

// intDigits is the number of decimal digits an integer type may need.
func intDigits(t columnar.Type) int {
	switch t.ID {
	case columnar.Int8, columnar.Uint8:
		return 3
	case columnar.Int16, columnar.Uint16:
		return 5
	case columnar.Int32, columnar.Uint32:
		return 10
	case columnar.Hugeint:
		return columnar.MaxDecimal // DuckDB: a HUGEINT meets a DECIMAL as DECIMAL(38,0)
	case columnar.Uhugeint:
		return columnar.MaxDecimal + 1 // no DECIMAL holds it
	case columnar.Uint64:
		return 20
	}
	return 19
}

// decimalWithInt is DuckDB's common type of DECIMAL d and an integer of
// the given digits: the wider whole part beside d's scale, at most 38
// digits (the scale is kept; integers that do not fit fail to cast).
func decimalWithInt(d columnar.Type, digits int) columnar.Type {
	whole := max(int(d.Precision)-int(d.Scale), digits)
	return columnar.DecimalType(min(whole+int(d.Scale), columnar.MaxDecimal), int(d.Scale))
}

// decimalHolds reports whether the DECIMAL type t holds every value of the
// numeric type x exactly (as many whole digits, as large a scale).
func decimalHolds(t, x columnar.Type) bool {
	whole := int(t.Precision) - int(t.Scale)
	switch {
	case x.IsDecimal():
		return x.Scale <= t.Scale && int(x.Precision)-int(x.Scale) <= whole
	case isInt(x):
		return intDigits(x) <= whole
	}
	return true
}

// isNum reports a numeric type of any width.
func isNum(t columnar.Type) bool { return t.IsNumeric() || t.Wide() }

// isInt reports an integer type of any width.
func isInt(t columnar.Type) bool {
	return t.IsInteger() || t.ID == columnar.Hugeint || t.ID == columnar.Uhugeint
}

// numericSuper returns the type both numeric types convert to.
func numericSuper(a, b columnar.Type) columnar.Type {
	if a == b {
		return a
	}
	switch {
	case a.ID == columnar.Float64 || b.ID == columnar.Float64:
		return columnar.TFloat64
	case a.ID == columnar.Float32 || b.ID == columnar.Float32:
		return columnar.TFloat32 // DuckDB: FLOAT with any integer or DECIMAL is FLOAT
	case a.IsDecimal() && b.IsDecimal():
		// As DuckDB: the wider whole part and the larger scale; past 38
		// digits the scale gives way (DECIMAL(38,0) with DECIMAL(38,37)
		// is DECIMAL(38,0)).
		s := int(max(a.Scale, b.Scale))
		whole := max(int(a.Precision)-int(a.Scale), int(b.Precision)-int(b.Scale))
		if whole+s > columnar.MaxDecimal {
			s = columnar.MaxDecimal - whole
		}
		return columnar.DecimalType(whole+s, s)
	case a.IsDecimal() || b.IsDecimal():
		// As DuckDB: the integer's digits beside the scale, at most 38
		// digits (the scale is kept; values that do not fit fail to cast).
		d, i := a, b
		if b.IsDecimal() {
			d, i = b, a
		}
		return decimalWithInt(d, intDigits(i))
	}
	// Both integers.
	switch {
	case a.ID == columnar.Uhugeint || b.ID == columnar.Uhugeint:
		s := a
		if a.ID == columnar.Uhugeint {
			s = b
		}
		switch {
		case s.ID == columnar.Hugeint:
			return columnar.TFloat64
		case s.IsSigned():
			// DuckDB: the signed type one wider (coalesce(UHUGEINT, INTEGER)
			// is BIGINT; arithmetic is DOUBLE instead, bind_arith.go).
			if intRank(s.ID) == 4 {
				return columnar.THugeint
			}
			return signedByRank[intRank(s.ID)+1]
		}
		return columnar.TUhugeint
	case a.ID == columnar.Hugeint || b.ID == columnar.Hugeint:
		return columnar.THugeint
	}
	if a.ID == columnar.Uint64 || b.ID == columnar.Uint64 {
		if a.IsSigned() || b.IsSigned() {
			return columnar.THugeint // DuckDB: UBIGINT with BIGINT is HUGEINT
		}
		return columnar.TUint64
	}
	if a.IsSigned() == b.IsSigned() {
		if intRank(a.ID) >= intRank(b.ID) {
			return a
		}
		return b
	}
	s, u := a, b
	if b.IsSigned() {
		s, u = b, a
	}
	return signedByRank[max(intRank(s.ID), min(intRank(u.ID)+1, 4))]
}

// SuperType is the type a and b both convert to implicitly (comparison,
// CASE, COALESCE, IN, files read with union_by_name), or false when there
// is none.
func SuperType(a, b columnar.Type) (columnar.Type, bool) { return superType(a, b) }

// superType returns the common type of a and b for comparison, CASE,
// COALESCE and IN, or false when there is none.
func superType(a, b columnar.Type) (columnar.Type, bool) {
	switch {
	case a == b:
		return a, true
	case a.ID == columnar.Null:
		return b, true
	case b.ID == columnar.Null:
		return a, true
	case isNum(a) && isNum(b):
		return numericSuper(a, b), true
	case a.ID == columnar.Bool && isInt(b):
		return b, true // DuckDB: true = 1, coalesce(true, 1) is INTEGER
	case b.ID == columnar.Bool && isInt(a):
		return a, true
	case a.ID == columnar.TimestampTZ || b.ID == columnar.TimestampTZ:
		return tzSuper(a, b) // bind_timezone.go
	case a.IsTemporal() && b.IsTemporal():
		return columnar.TTimestamp, true
	case a.IsTimestampUnit() || b.IsTimestampUnit():
		return unitSuper(a, b)
	case a.ID == columnar.Decimal && b.ID == columnar.Decimal:
		return numericSuper(a, b), true
	case a.IsNested() && b.IsNested():
		return nestedSuper(a, b) // types_nested.go
	case a.ID == columnar.Enum || b.ID == columnar.Enum:
		return enumSuper(a, b) // types_enum.go
	case a.ID == columnar.Geometry && b.ID == columnar.Geometry && (a.CRS() == "" || b.CRS() == ""):
		// GEOMETRY and GEOMETRY('OGC:CRS84'): the one with a CRS (DuckDB 1.5).
		if a.CRS() == "" {
			return b, true
		}
		return a, true
	}
	return columnar.Type{}, false
}

// canCast reports whether CAST(from AS to) is defined.
func canCast(from, to columnar.Type) bool {
	switch {
	case from == to, from.ID == columnar.Null, to.ID == columnar.Varchar, from.ID == columnar.Varchar:
		return true
	case from.ID == columnar.Bit || to.ID == columnar.Bit:
		return bitCastable(from) && bitCastable(to) // types_bit.go
	case from.IsNumeric() && to.IsNumeric():
		return true
	case (from.Wide() || to.Wide()) && (from.Wide() || from.IsNumeric() || from.ID == columnar.Bool) && (to.Wide() || to.IsNumeric() || to.ID == columnar.Bool):
		return true
	case from.ID == columnar.Bool && (to.IsNumeric() || to.ID == columnar.Bool):
		return true
	case from.IsNumeric() && to.ID == columnar.Bool:
		return true
	case from.IsTemporal() && to.IsTemporal():
		return true
	case from.IsTimestampUnit() || to.IsTimestampUnit():
		return canCastUnit(from, to)
	case from.ID == columnar.Uuid || to.ID == columnar.Uuid:
		// Besides text: UUID to and from its 16 bytes as a BLOB (DuckDB).
		return from.ID == columnar.Blob || to.ID == columnar.Blob
	case from.ID == columnar.TimestampTZ:
		return to.ID == columnar.Timestamp || to.ID == columnar.Date || to.ID == columnar.TimeTZ
	case to.ID == columnar.TimestampTZ:
		return from.ID == columnar.Timestamp || from.ID == columnar.Date
	case from.ID == columnar.Timestamp && to.ID == columnar.Time:
		return true // the time of day; DuckDB has no other cast to or from TIME
	case to.ID == columnar.TimeTZ:
		// TIME and TIMESTAMP at +00 (DuckDB; TIMESTAMPTZ's above).
		return from.ID == columnar.Time || from.ID == columnar.Timestamp
	case from.ID == columnar.TimeTZ:
		return to.ID == columnar.Time // the local time
	case from.ID == columnar.Blob && to.ID == columnar.Blob, from.ID == columnar.Geometry && to.ID == columnar.Geometry:
		return true
	case from.ID == columnar.Enum:
		// Through its text: 'happy'::mood::INT reads 'happy' (DuckDB);
		// to another ENUM by value.
		return canCast(columnar.TVarchar, to)
	case from.IsNested() && to.IsNested():
		return canCastNested(from, to) // types_nested.go
	}
	return false
}
