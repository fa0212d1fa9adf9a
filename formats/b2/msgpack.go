package b2

import (
	"encoding/binary"
)

// mpReader reads the fixed msgpack subset used by frame headers, trailers
// and the b2nd metalayer. Every read is bounds-checked; the first failure
// sticks in err so callers check once at the end of a sequence.
type mpReader struct {
	b   []byte
	p   int
	err error
}

func (r *mpReader) fail(what string) {
	if r.err == nil {
		r.err = corruptf("msgpack: %s at offset %d", what, r.p)
	}
}

func (r *mpReader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || n > len(r.b)-r.p {
		r.fail("truncated")
		return false
	}
	return true
}

func (r *mpReader) byte1() byte {
	if !r.need(1) {
		return 0
	}
	r.p++
	return r.b[r.p-1]
}

func (r *mpReader) expect(marker byte) {
	if c := r.byte1(); r.err == nil && c != marker {
		r.p--
		r.fail("unexpected marker")
	}
}

func (r *mpReader) bytes(n int) []byte {
	if !r.need(n) {
		return nil
	}
	r.p += n
	return r.b[r.p-n : r.p]
}

func (r *mpReader) u16() int {
	b := r.bytes(2)
	if b == nil {
		return 0
	}
	return int(binary.BigEndian.Uint16(b))
}

func (r *mpReader) u32() uint32 {
	b := r.bytes(4)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint32(b)
}

// int reads any msgpack integer (tolerant readers accept any width).
func (r *mpReader) int() int64 {
	c := r.byte1()
	if r.err != nil {
		return 0
	}
	switch {
	case c <= 0x7f:
		return int64(c)
	case c >= 0xe0:
		return int64(int8(c))
	}
	switch c {
	case 0xcc:
		return int64(r.byte1())
	case 0xcd:
		return int64(r.u16())
	case 0xce:
		return int64(r.u32())
	case 0xcf:
		b := r.bytes(8)
		if b == nil {
			return 0
		}
		v := binary.BigEndian.Uint64(b)
		if v > 1<<63-1 {
			r.fail("uint64 overflow")
			return 0
		}
		return int64(v)
	case 0xd0:
		return int64(int8(r.byte1()))
	case 0xd1:
		return int64(int16(r.u16()))
	case 0xd2:
		return int64(int32(r.u32()))
	case 0xd3:
		b := r.bytes(8)
		if b == nil {
			return 0
		}
		return int64(binary.BigEndian.Uint64(b))
	}
	r.p--
	r.fail("expected integer")
	return 0
}

// str reads a msgpack str of any width.
func (r *mpReader) str() string {
	c := r.byte1()
	if r.err != nil {
		return ""
	}
	var n int
	switch {
	case c&0xe0 == 0xa0:
		n = int(c & 0x1f)
	case c == 0xd9:
		n = int(r.byte1())
	case c == 0xda:
		n = r.u16()
	case c == 0xdb:
		n = int(r.u32())
	default:
		r.p--
		r.fail("expected string")
		return ""
	}
	return string(r.bytes(n))
}

// bin reads a msgpack bin of any width (metalayer values are bin32).
func (r *mpReader) bin() []byte {
	c := r.byte1()
	if r.err != nil {
		return nil
	}
	var n int
	switch c {
	case 0xc4:
		n = int(r.byte1())
	case 0xc5:
		n = r.u16()
	case 0xc6:
		n = int(r.u32())
	default:
		r.p--
		r.fail("expected bin")
		return nil
	}
	return r.bytes(n)
}

// arrayLen reads a fixarray/array16/array32 header.
func (r *mpReader) arrayLen() int {
	c := r.byte1()
	if r.err != nil {
		return 0
	}
	switch {
	case c&0xf0 == 0x90:
		return int(c & 0x0f)
	case c == 0xdc:
		return r.u16()
	case c == 0xdd:
		n := r.u32()
		if int64(n) > int64(len(r.b)) { // each element takes ≥ 1 byte
			r.fail("array length exceeds input")
			return 0
		}
		return int(n)
	}
	r.p--
	r.fail("expected array")
	return 0
}

// mapLen reads a fixmap/map16/map32 header.
func (r *mpReader) mapLen() int {
	c := r.byte1()
	if r.err != nil {
		return 0
	}
	switch {
	case c&0xf0 == 0x80:
		return int(c & 0x0f)
	case c == 0xde:
		return r.u16()
	case c == 0xdf:
		n := r.u32()
		if int64(n) > int64(len(r.b)) {
			r.fail("map length exceeds input")
			return 0
		}
		return int(n)
	}
	r.p--
	r.fail("expected map")
	return 0
}

// mpWriter appends the fixed-width msgpack encodings c-blosc2 writes.
type mpWriter struct{ b []byte }

func (w *mpWriter) u8(v byte)    { w.b = append(w.b, v) }
func (w *mpWriter) raw(p []byte) { w.b = append(w.b, p...) }
func (w *mpWriter) i32(v int32)  { w.b = binary.BigEndian.AppendUint32(append(w.b, 0xd2), uint32(v)) }
func (w *mpWriter) i64(v int64)  { w.b = binary.BigEndian.AppendUint64(append(w.b, 0xd3), uint64(v)) }

// small writes v as a positive fixint, as c-blosc2 writes the b2nd
// metalayer's version, ndim and dtype format, or as an int64 when it does
// not fit one (a version read from a file that no writer made).
func (w *mpWriter) small(v int) {
	if v >= 0 && v < 0x80 {
		w.u8(byte(v))
		return
	}
	w.i64(int64(v))
}
func (w *mpWriter) u16m(v int) { w.b = binary.BigEndian.AppendUint16(append(w.b, 0xcd), uint16(v)) }
func (w *mpWriter) bin32(p []byte) {
	w.b = append(binary.BigEndian.AppendUint32(append(w.b, 0xc6), uint32(len(p))), p...)
}
func (w *mpWriter) fixstr(s string) {
	w.b = append(append(w.b, 0xa0|byte(len(s))), s...)
}
