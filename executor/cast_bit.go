package executor

import (
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// castBit casts to or from a BIT as DuckDB 1.5.6 does. Text is read bit
// by bit ('0' and '1' only); a BLOB gives its bytes' bits, and a BIT gives
// a BLOB its bits right-aligned in bytes. A number gives the bits of its
// own width, big-endian (BOOLEAN 8, FLOAT 32, DOUBLE 64 IEEE bits,
// HUGEINT 128); a BIT gives a number the value of its bits read as that
// width's two's complement (right-aligned, zero-extended), an error when
// it has more bits than the width ("Bitstring doesn't fit inside of
// INT32"). DECIMAL and the temporal types have no cast to or from BIT.
func castBit(v columnar.Value, to columnar.Type) (columnar.Value, error) {
	from := v.Type
	if from.ID == columnar.Bit {
		return castFromBit([]byte(v.S), to)
	}
	bit := func(b []byte) (columnar.Value, error) { return columnar.Value{Type: columnar.TBit, S: string(b)}, nil }
	switch {
	case from.ID == columnar.Varchar:
		b, err := columnar.ParseBit(v.S)
		if err != nil {
			return columnar.Value{}, errorf("could not cast %s to BIT: %v", quoteVal(v), err)
		}
		return bit(b)
	case from.ID == columnar.Blob:
		if v.S == "" {
			return columnar.Value{}, errorf("could not cast an empty BLOB to BIT")
		}
		return bit(columnar.BitFromBytes([]byte(v.S)))
	case from.ID == columnar.Hugeint || from.ID == columnar.Uhugeint:
		a := v.Wide128()
		return bit(columnar.BitFromUint128(uint64(a.Hi), a.Lo))
	case from.ID == columnar.Float32:
		return bit(columnar.BitFromUint(uint64(math.Float32bits(float32(v.F))), 32))
	case from.ID == columnar.Float64:
		return bit(columnar.BitFromUint(math.Float64bits(v.F), 64))
	case from.ID == columnar.Bool:
		return bit(columnar.BitFromUint(uint64(v.I), 8))
	case from.IsInteger():
		return bit(columnar.BitFromUint(uint64(v.I), from.IntBits()))
	}
	return columnar.Value{}, errorf("cannot cast %s to BIT", from)
}

// castFromBit is castBit from a BIT payload b.
func castFromBit(b []byte, to columnar.Type) (columnar.Value, error) {
	width := 0
	switch {
	case to.ID == columnar.Varchar:
		return columnar.StringValue(string(columnar.AppendBit(nil, b))), nil
	case to.ID == columnar.Blob:
		return columnar.Value{Type: to, S: string(columnar.BitBytes(b))}, nil
	case to.ID == columnar.Hugeint || to.ID == columnar.Uhugeint:
		width = 128
	case to.ID == columnar.Float32:
		width = 32
	case to.ID == columnar.Float64:
		width = 64
	case to.ID == columnar.Bool:
		width = 8
	case to.IsInteger():
		width = to.IntBits()
	default:
		return columnar.Value{}, errorf("cannot cast BIT to %s", to)
	}
	if columnar.BitLen(b) > width {
		return columnar.Value{}, errorf("bitstring doesn't fit inside of %s", bitWidthName(to))
	}
	hi, lo := columnar.BitUint128(b)
	switch {
	case width == 128:
		return columnar.WideValue(to, columnar.Int128{Hi: int64(hi), Lo: lo}), nil
	case to.ID == columnar.Float32:
		return columnar.FloatValue(to, float64(math.Float32frombits(uint32(lo)))), nil
	case to.ID == columnar.Float64:
		return columnar.FloatValue(to, math.Float64frombits(lo)), nil
	case to.ID == columnar.Bool:
		return columnar.BoolValue(lo != 0), nil
	case to.ID == columnar.Uint64:
		return columnar.UintValue(lo), nil
	case to.IsSigned():
		// The width's two's complement: the top bit of the width is the sign.
		s := 64 - width
		return columnar.IntValue(to, int64(lo<<s)>>s), nil
	}
	return columnar.IntValue(to, int64(lo)), nil
}

// bitWidthName is how DuckDB names a type in BIT's "doesn't fit" error.
func bitWidthName(t columnar.Type) string {
	switch t.ID {
	case columnar.Hugeint:
		return "INT128"
	case columnar.Uhugeint:
		return "UINT128"
	case columnar.Float32:
		return "FLOAT"
	case columnar.Float64:
		return "DOUBLE"
	case columnar.Bool:
		return "BOOL"
	case columnar.Uint8, columnar.Uint16, columnar.Uint32, columnar.Uint64:
		return "UINT" + itoa(int64(t.IntBits()))
	}
	return "INT" + itoa(int64(t.IntBits()))
}
