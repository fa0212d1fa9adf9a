package ctable

import (
	"encoding/binary"
	"math"
)

// mpAppend appends the msgpack encoding of v, using the smallest encodings
// (what python's msgpack.packb writes). Supported: nil, bool, int, int64,
// uint64, float64, string, []byte, []any, mpMap.
func mpAppend(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, 0xc0)
	case bool:
		if x {
			return append(b, 0xc3)
		}
		return append(b, 0xc2)
	case int:
		return mpInt(b, int64(x))
	case int64:
		return mpInt(b, x)
	case uint64:
		if x <= math.MaxInt64 {
			return mpInt(b, int64(x))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xcf), x)
	case float64:
		return binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(x))
	case string:
		return mpStr(b, x)
	case []byte:
		return mpBin(b, x)
	case []any:
		b = mpArrayHeader(b, len(x))
		for _, e := range x {
			b = mpAppend(b, e)
		}
		return b
	case mpMap:
		b = mpMapHeader(b, len(x))
		for _, e := range x {
			b = mpAppend(b, e.Key)
			b = mpAppend(b, e.Val)
		}
		return b
	}
	panic("ctable: mpAppend of unsupported type") // a bug of ours, never input
}

func mpInt(b []byte, x int64) []byte {
	switch {
	case x >= 0 && x < 128:
		return append(b, byte(x))
	case x < 0 && x >= -32:
		return append(b, byte(x))
	case x >= 0 && x < 1<<8:
		return append(b, 0xcc, byte(x))
	case x >= 0 && x < 1<<16:
		return binary.BigEndian.AppendUint16(append(b, 0xcd), uint16(x))
	case x >= 0 && x < 1<<32:
		return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(x))
	case x >= 0:
		return binary.BigEndian.AppendUint64(append(b, 0xcf), uint64(x))
	case x >= math.MinInt8:
		return append(b, 0xd0, byte(x))
	case x >= math.MinInt16:
		return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(x))
	case x >= math.MinInt32:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(x))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(x))
}

func mpStr(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n < 1<<8:
		b = append(b, 0xd9, byte(n))
	case n < 1<<16:
		b = binary.BigEndian.AppendUint16(append(b, 0xda), uint16(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0xdb), uint32(n))
	}
	return append(b, s...)
}

func mpBin(b []byte, p []byte) []byte {
	switch n := len(p); {
	case n < 1<<8:
		b = append(b, 0xc4, byte(n))
	case n < 1<<16:
		b = binary.BigEndian.AppendUint16(append(b, 0xc5), uint16(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0xc6), uint32(n))
	}
	return append(b, p...)
}

func mpArrayHeader(b []byte, n int) []byte { return mpHeader(b, n, 0x90, 0xdc, 0xdd) }

func mpMapHeader(b []byte, n int) []byte { return mpHeader(b, n, 0x80, 0xde, 0xdf) }

// mpHeader appends the header of an array or map of n elements: the fix
// form (fix|n) below 16, else the 16- or 32-bit one.
func mpHeader(b []byte, n int, fix, m16, m32 byte) []byte {
	switch {
	case n < 16:
		return append(b, fix|byte(n))
	case n < 1<<16:
		return binary.BigEndian.AppendUint16(append(b, m16), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(b, m32), uint32(n))
}
