package ctable

import (
	"encoding/binary"
	"math"
	"unicode/utf8"
	"unsafe"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// fixedConv converts items of one NumPy element type into a vector. It is
// chosen once per column (kernel selection at build time, STYLE §6); the
// per-row loops below are plain slice loops.
type fixedConv struct {
	dt     b2.DType      // element type (a field's type for structured dtypes)
	off    int           // byte offset of the element inside an item
	stride int           // item size
	part   int           // complex: 0 = real, 1 = imaginary
	out    columnar.Type // SQL type produced
	mul    int64         // temporal scaling towards the SQL unit: v*mul/div (floor)
	div    int64
}

// decode converts n items of src into v[0:n]. Byte payloads are copied into
// *arena (grown once, so earlier slices stay valid) because src is a
// scratch buffer reused by the next read.
func (c *fixedConv) decode(src []byte, n int, v *columnar.Vector, arena *[]byte) {
	s, o := c.stride, c.off
	if c.out.ID == columnar.Interval {
		// timedelta64: microseconds, held as INTERVAL byte forms.
		us := make([]int64, n)
		c.decodeInts(src, us)
		for i, x := range us {
			v.SetInterval(i, columnar.IntervalParts{Micros: scaleTime(x, c.mul, c.div)})
		}
		return
	}
	switch c.out.Phys() {
	case columnar.PhysBool:
		out := v.Bools[:n]
		if s == 1 && o == 0 {
			boolsFromBytes(out, src[:n])
			break
		}
		for i := range out {
			out[i] = src[i*s+o] != 0
		}
	case columnar.PhysInt:
		out := v.Ints[:n]
		c.decodeInts(src, out)
		if c.mul != 1 || c.div != 1 {
			for i, x := range out {
				out[i] = scaleTime(x, c.mul, c.div)
			}
		}
	case columnar.PhysUint:
		out := v.Uints[:n]
		for i := range out {
			out[i] = binary.LittleEndian.Uint64(src[i*s+o:])
		}
	case columnar.PhysFloat:
		out := v.Floats[:n]
		size := c.dt.ItemSize
		po := o
		if c.dt.Kind == 'c' {
			size /= 2
			po += c.part * size
		}
		if size == 4 && s == 4 {
			for i, x := range b2.Items[float32](src[:4*n]) {
				out[i] = float64(x)
			}
		} else if size == 4 {
			for i := range out {
				out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(src[i*s+po:])))
			}
		} else if s == 8 && po == 0 {
			copy(out, b2.Items[float64](src[:8*n]))
		} else {
			for i := range out {
				out[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[i*s+po:]))
			}
		}
	case columnar.PhysBytes:
		size := c.dt.ItemSize
		if cap(*arena) < n*size {
			*arena = make([]byte, 0, n*size)
		}
		a := (*arena)[:0]
		out := v.Bytes[:n]
		for i := range out {
			item := src[i*s+o : i*s+o+size]
			start := len(a)
			if c.dt.Kind == 'U' {
				a = appendUCS4(a, item)
			} else {
				a = append(a, trimNUL(item)...)
			}
			out[i] = a[start:len(a):len(a)]
		}
		*arena = a
	}
}

func (c *fixedConv) decodeInts(src []byte, out []int64) {
	s, o, n := c.stride, c.off, len(out)
	signed := c.dt.Kind == 'i' || c.dt.Kind == 'M' || c.dt.Kind == 'm'
	if s == c.dt.ItemSize && o == 0 {
		// Plain items (not fields of a structured dtype): typed slices,
		// one loop per width and signedness, no branch per row.
		src = src[:n*s]
		switch {
		case s == 8:
			copy(out, b2.Items[int64](src))
		case s == 4 && signed:
			widen(out, b2.Items[int32](src))
		case s == 4:
			widen(out, b2.Items[uint32](src))
		case s == 2 && signed:
			widen(out, b2.Items[int16](src))
		case s == 2:
			widen(out, b2.Items[uint16](src))
		case s == 1 && signed:
			widen(out, b2.Items[int8](src))
		default:
			widen(out, src)
		}
		return
	}
	switch c.dt.ItemSize {
	case 1:
		for i := range out {
			if signed {
				out[i] = int64(int8(src[i*s+o]))
			} else {
				out[i] = int64(src[i*s+o])
			}
		}
	case 2:
		for i := range out {
			x := binary.LittleEndian.Uint16(src[i*s+o:])
			if signed {
				out[i] = int64(int16(x))
			} else {
				out[i] = int64(x)
			}
		}
	case 4:
		for i := range out {
			x := binary.LittleEndian.Uint32(src[i*s+o:])
			if signed {
				out[i] = int64(int32(x))
			} else {
				out[i] = int64(x)
			}
		}
	default:
		for i := range out {
			out[i] = int64(binary.LittleEndian.Uint64(src[i*s+o:]))
		}
	}
}

// widen converts narrower integers to int64.
func widen[T int8 | uint8 | int16 | uint16 | int32 | uint32](out []int64, in []T) {
	in = in[:len(out)]
	for i, x := range in {
		out[i] = int64(x)
	}
}

// scaleTime converts x units to x*mul/div, flooring so that order is kept
// (a predicate bound converted the same way stays a bound). Overflow
// saturates: such values are far outside any SQL timestamp range anyway.
func scaleTime(x, mul, div int64) int64 {
	if mul != 1 {
		if x > math.MaxInt64/mul {
			return math.MaxInt64
		}
		if x < math.MinInt64/mul {
			return math.MinInt64
		}
		x *= mul
	}
	if div != 1 {
		q := x / div
		if x%div < 0 {
			q--
		}
		x = q
	}
	return x
}

// appendUCS4 appends the UTF-8 encoding of a NUL-padded UCS-4 LE string.
// Invalid code points become U+FFFD rather than failing a whole scan.
func appendUCS4(dst, item []byte) []byte {
	n := len(item) / 4
	for n > 0 && binary.LittleEndian.Uint32(item[4*(n-1):]) == 0 {
		n--
	}
	for i := 0; i < n; i++ {
		r := rune(binary.LittleEndian.Uint32(item[4*i:]))
		if r > utf8.MaxRune || r < 0 {
			r = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// trimNUL drops trailing NUL bytes, as NumPy does for S items.
func trimNUL(b []byte) []byte {
	n := len(b)
	for n > 0 && b[n-1] == 0 {
		n--
	}
	return b[:n]
}

// sqlTypeOf maps a NumPy element type to the SQL type a b2nd column
// exposes, and the temporal scaling (mul, div) of its values. Complex
// types map to their float part type.
func sqlTypeOf(dt b2.DType) (t columnar.Type, mul, div int64, err error) {
	if dt.BigEndian() && dt.ItemSize > 1 {
		return t, 1, 1, unsupportedf("big-endian dtype %s", dt.Str)
	}
	mul, div = 1, 1
	switch dt.Kind {
	case 'b':
		return columnar.TBool, 1, 1, nil
	case 'i':
		switch dt.ItemSize {
		case 1:
			return columnar.TInt8, 1, 1, nil
		case 2:
			return columnar.TInt16, 1, 1, nil
		case 4:
			return columnar.TInt32, 1, 1, nil
		case 8:
			return columnar.TInt64, 1, 1, nil
		}
	case 'u':
		switch dt.ItemSize {
		case 1:
			return columnar.TUint8, 1, 1, nil
		case 2:
			return columnar.TUint16, 1, 1, nil
		case 4:
			return columnar.TUint32, 1, 1, nil
		case 8:
			return columnar.TUint64, 1, 1, nil
		}
	case 'f':
		switch dt.ItemSize {
		case 4:
			return columnar.TFloat32, 1, 1, nil
		case 8:
			return columnar.TFloat64, 1, 1, nil
		}
	case 'c':
		switch dt.ItemSize {
		case 8:
			return columnar.TFloat32, 1, 1, nil
		case 16:
			return columnar.TFloat64, 1, 1, nil
		}
	case 'S', 'U':
		return columnar.TVarchar, 1, 1, nil
	case 'M', 'm':
		if dt.ItemSize != 8 {
			break
		}
		if dt.Kind == 'M' && dt.Unit == "D" {
			return columnar.TDate, 1, 1, nil
		}
		sc, ok := numpyUnits[dt.Unit]
		if !ok {
			return t, 1, 1, unsupportedf("datetime unit %q of %s", dt.Unit, dt.Str)
		}
		if dt.Kind == 'm' {
			return columnar.TInterval, sc[0], sc[1], nil
		}
		return columnar.TTimestamp, sc[0], sc[1], nil
	}
	return t, 1, 1, unsupportedf("dtype %s", dt.Str)
}

// numpyUnits maps NumPy datetime64/timedelta64 units to (mul, div) towards µs.
var numpyUnits = map[string][2]int64{
	"W": {7 * 86_400_000_000, 1}, "D": {86_400_000_000, 1}, "h": {3_600_000_000, 1},
	"m": {60_000_000, 1}, "s": {1_000_000, 1}, "ms": {1000, 1}, "us": {1, 1},
	"ns": {1, 1000}, "ps": {1, 1_000_000}, "fs": {1, 1_000_000_000},
}

// boolsFromBytes sets out[i] = src[i] != 0 eight bytes at a time: a Go
// bool is a byte holding 0 or 1, so each word of NumPy bools becomes a
// word of Go bools by turning every nonzero byte into 1 (NumPy writes only
// 0 and 1; other bytes are normalized, as the row loop does). A flag
// column of 10M rows converts in a tenth of the time of the row loop.
func boolsFromBytes(out []bool, src []byte) {
	src = src[:len(out)]
	dst := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), len(out))
	const low7, high = 0x7F7F7F7F7F7F7F7F, 0x8080808080808080
	i := 0
	for ; i+8 <= len(src); i += 8 {
		w := binary.LittleEndian.Uint64(src[i:])
		// A byte's high bit ends up set iff the byte is nonzero: its low
		// seven bits carry into bit 7 when any is set, or bit 7 was set.
		nz := ((w & low7) + low7 | w) & high
		binary.LittleEndian.PutUint64(dst[i:], nz>>7)
	}
	for ; i < len(src); i++ {
		out[i] = src[i] != 0
	}
}
