package ctable

import (
	"encoding/binary"
	"math"
)

// This file is a small msgpack decoder. python-blosc2 stores every vlmeta
// value and every BatchArray item as msgpack; package b2 decodes vlmeta into
// map[string]any, which loses key order (the user sees vlmeta in the order
// it was written) and boxes every item. Here maps keep their order, str/bin
// payloads alias the input (a varlen batch is decoded without one copy per
// row) and every length is checked against the bytes left, so hostile input
// can neither panic nor make us allocate more than it is long.

// mpMap is a decoded msgpack map, in stored order.
type mpMap []mpEntry

// mpEntry is one key/value pair of a map.
type mpEntry struct {
	Key any
	Val any
}

// mpExt is an extension value (python-blosc2 uses 42 and 43 for embedded
// objects, which a table reader never needs to open).
type mpExt struct {
	Type int8
	Data []byte
}

// get returns the value of string key k.
func (m mpMap) get(k string) (any, bool) {
	for _, e := range m {
		if s, ok := e.Key.(string); ok && s == k {
			return e.Val, true
		}
	}
	return nil, false
}

// maxDepth bounds nesting so that a hostile "array of array of …" input
// cannot exhaust the stack.
const maxDepth = 64

// mpReader decodes msgpack from b. After the first error every method
// returns zero values and err stays set.
type mpReader struct {
	b   []byte
	off int
	err error
}

func (r *mpReader) fail(what string) {
	if r.err == nil {
		r.err = corruptf("msgpack at byte %d: %s", r.off, what)
	}
	r.off = len(r.b)
}

// take returns the next n bytes, or nil after recording an error.
func (r *mpReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.off {
		r.fail("truncated")
		return nil
	}
	s := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return s
}

func (r *mpReader) u8() byte {
	if s := r.take(1); s != nil {
		return s[0]
	}
	return 0
}

func (r *mpReader) be(n int) uint64 {
	s := r.take(n)
	if s == nil {
		return 0
	}
	var v uint64
	for _, c := range s {
		v = v<<8 | uint64(c)
	}
	return v
}

// done reports whether all input was consumed.
func (r *mpReader) done() bool { return r.off >= len(r.b) }

// value decodes any value: nil, bool, int64, uint64 (only above MaxInt64),
// float64, string, []byte, []any, mpMap or mpExt.
func (r *mpReader) value(depth int) any {
	if depth > maxDepth {
		r.fail("nesting too deep")
		return nil
	}
	c := r.u8()
	if r.err != nil {
		return nil
	}
	switch {
	case c <= 0x7f:
		return int64(c)
	case c >= 0xe0:
		return int64(int8(c))
	case c&0xe0 == 0xa0:
		return string(r.take(int(c & 0x1f)))
	case c&0xf0 == 0x90:
		return r.array(int(c&0x0f), depth)
	case c&0xf0 == 0x80:
		return r.mapN(int(c&0x0f), depth)
	}
	switch c {
	case 0xc0:
		return nil
	case 0xc2:
		return false
	case 0xc3:
		return true
	case 0xc4, 0xc5, 0xc6:
		return r.take(int(r.be(1 << (c - 0xc4))))
	case 0xc7, 0xc8, 0xc9:
		n := int(r.be(1 << (c - 0xc7)))
		t := int8(r.u8())
		return mpExt{Type: t, Data: r.take(n)}
	case 0xca:
		return float64(math.Float32frombits(uint32(r.be(4))))
	case 0xcb:
		return math.Float64frombits(r.be(8))
	case 0xcc, 0xcd, 0xce, 0xcf:
		v := r.be(1 << (c - 0xcc))
		if v > math.MaxInt64 {
			return v
		}
		return int64(v)
	case 0xd0:
		return int64(int8(r.be(1)))
	case 0xd1:
		return int64(int16(r.be(2)))
	case 0xd2:
		return int64(int32(r.be(4)))
	case 0xd3:
		return int64(r.be(8))
	case 0xd4, 0xd5, 0xd6, 0xd7, 0xd8:
		t := int8(r.u8())
		return mpExt{Type: t, Data: r.take(1 << (c - 0xd4))}
	case 0xd9, 0xda, 0xdb:
		return string(r.take(int(r.be(1 << (c - 0xd9)))))
	case 0xdc, 0xdd:
		return r.array(int(r.be(2<<(c-0xdc))), depth)
	case 0xde, 0xdf:
		return r.mapN(int(r.be(2<<(c-0xde))), depth)
	}
	r.fail("reserved marker 0xc1")
	return nil
}

func (r *mpReader) array(n, depth int) []any {
	// Every element takes at least one byte: a count beyond the bytes left
	// is a lie, caught before allocating.
	if n > len(r.b)-r.off {
		r.fail("array longer than its input")
		return nil
	}
	out := make([]any, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		out = append(out, r.value(depth+1))
	}
	return out
}

func (r *mpReader) mapN(n, depth int) mpMap {
	if n > (len(r.b)-r.off)/2 {
		r.fail("map longer than its input")
		return nil
	}
	out := make(mpMap, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		k := r.value(depth + 1)
		v := r.value(depth + 1)
		out = append(out, mpEntry{k, v})
	}
	return out
}

// arrayLen reads an array header.
func (r *mpReader) arrayLen() int {
	c := r.u8()
	switch {
	case r.err != nil:
		return 0
	case c&0xf0 == 0x90:
		return int(c & 0x0f)
	case c == 0xdc:
		return int(r.be(2))
	case c == 0xdd:
		return int(r.be(4))
	}
	r.off--
	r.fail("array expected")
	return 0
}

// rawItem reads one str, bin or nil item without copying: it returns the
// payload (non-nil, possibly empty) or nil for msgpack nil. Other types are
// an error naming what was found.
func (r *mpReader) rawItem() []byte {
	c := r.u8()
	if r.err != nil {
		return nil
	}
	var n int
	switch {
	case c == 0xc0:
		return nil
	case c&0xe0 == 0xa0:
		n = int(c & 0x1f)
	case c == 0xd9 || c == 0xc4:
		n = int(r.be(1))
	case c == 0xda || c == 0xc5:
		n = int(r.be(2))
	case c == 0xdb || c == 0xc6:
		n = int(r.be(4))
	default:
		r.off--
		r.fail("string, bytes or nil item expected")
		return nil
	}
	s := r.take(n)
	if s == nil && r.err == nil {
		s = r.b[r.off:r.off:r.off] // non-nil empty: not NULL
	}
	return s
}

// mpDecode decodes exactly one value filling b.
func mpDecode(b []byte) (any, error) {
	r := &mpReader{b: b}
	v := r.value(0)
	if r.err == nil && !r.done() {
		r.fail("trailing bytes")
	}
	return v, r.err
}

// asInt converts a decoded integer (or integral float) to int64.
func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
			return int64(x), true
		}
	}
	return 0, false
}

// untuple strips python-blosc2's tuple marker: ["__tuple__", a, b] → [a, b].
func untuple(v any) ([]any, bool) {
	a, ok := v.([]any)
	if !ok {
		return nil, false
	}
	if len(a) > 0 {
		if s, ok := a[0].(string); ok && s == "__tuple__" {
			return a[1:], true
		}
	}
	return a, true
}

// mapPairs returns the entries of a map row: a msgpack map, or an array
// of (key, value) tuples (Arrow's to_pylist of a map), [] being empty.
func mapPairs(x any) ([][2]any, bool) {
	if m, ok := x.(mpMap); ok {
		out := make([][2]any, len(m))
		for i, e := range m {
			out[i] = [2]any{e.Key, e.Val}
		}
		return out, true
	}
	a, ok := x.([]any)
	if !ok {
		return nil, false
	}
	out := make([][2]any, len(a))
	for i, e := range a {
		p, ok := pairTuple(e)
		if !ok {
			return nil, false
		}
		out[i] = p
	}
	return out, true
}

// pairTuple returns the two items of a tuple ["__tuple__", a, b].
func pairTuple(x any) ([2]any, bool) {
	a, ok := x.([]any)
	if !ok || len(a) != 3 {
		return [2]any{}, false
	}
	if s, ok := a[0].(string); !ok || s != "__tuple__" {
		return [2]any{}, false
	}
	return [2]any{a[1], a[2]}, true
}

// le64 is binary.LittleEndian.Uint64 for short callers.
func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }
