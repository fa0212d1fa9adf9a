package parquet

import (
	"encoding/binary"
	"math"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/b2sql/b2sql/columnar"
)

// PLAIN numbers (dictionary pages, the pages of dictionary-less chunks and
// a writer's PLAIN fallback pages) are converted from the page bytes into
// the vector's payload: a copy where the payload has the page's layout
// (DOUBLE, INT64 without a unit conversion, on a little-endian host), one
// load and conversion per value otherwise. A page with NULLs is spread
// over its rows in the same pass (fillPlain).

// fixedWidth is the PLAIN width of the numeric kinds codeReader decodes,
// 0 for the others.
func fixedWidth(c *column) int {
	switch {
	case c.kind == kInt32 && c.phys == parquet.Types.Int32,
		c.kind == kUint32 && c.phys == parquet.Types.Int32,
		c.kind == kFloat32 && c.phys == parquet.Types.Float:
		return 4
	case c.kind == kInt64 && c.phys == parquet.Types.Int64,
		c.kind == kFloat64 && c.phys == parquet.Types.Double:
		return 8
	}
	return 0
}

// floatKind reports whether the kind fills Floats (else Ints).
func floatKind(k kind) bool { return k == kFloat32 || k == kFloat64 }

// littleEndianHost: PLAIN's little-endian bytes are the host's layout.
var littleEndianHost = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// decodeFixed converts n PLAIN values of column c, appending them to ints
// or floats.
func decodeFixed(c *column, data []byte, n int, ints []int64, floats []float64) ([]int64, []float64, error) {
	w := fixedWidth(c)
	if n < 0 || n > len(data)/w {
		return ints, floats, corruptf("%d values of %d bytes in %d bytes", n, w, len(data))
	}
	data = data[:n*w]
	if floatKind(c.kind) {
		base := len(floats)
		floats = slices.Grow(floats, n)[:base+n]
		convertPlain(c, data, nil, floats[base:])
	} else {
		base := len(ints)
		ints = slices.Grow(ints, n)[:base+n]
		convertPlain(c, data, ints[base:], nil)
	}
	return ints, floats, nil
}

// convertPlain converts the PLAIN values in data (len(ints) or
// len(floats) of them, whichever the kind fills) into ints or floats.
func convertPlain(c *column, data []byte, ints []int64, floats []float64) {
	switch c.kind {
	case kInt32:
		widenInt32(data, ints)
		if c.mul != 1 {
			for i, x := range ints {
				ints[i] = x * c.mul
			}
		}
	case kUint32:
		widenUint32(data, ints)
	case kInt64:
		src := data[:8*len(ints)]
		if c.mul == 1 && c.div == 1 {
			if littleEndianHost && len(ints) > 0 {
				copy(unsafe.Slice((*byte)(unsafe.Pointer(&ints[0])), len(src)), src)
				return
			}
			for i := range ints {
				ints[i] = int64(binary.LittleEndian.Uint64(src[8*i:]))
			}
			return
		}
		for i := range ints {
			ints[i] = convInt(int64(binary.LittleEndian.Uint64(src[8*i:])), c.mul, c.div)
		}
	case kFloat32:
		widenFloat32(data, floats)
	case kFloat64:
		src := data[:8*len(floats)]
		if littleEndianHost && len(floats) > 0 {
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&floats[0])), len(src)), src)
			return
		}
		for i := range floats {
			floats[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:]))
		}
	}
}

// Four words per step: a loop of one word a step spends most of its time
// on bounds checks. (One generic function with a conversion argument is
// not inlined and runs at a third of the speed; hence three loops.)

// widenInt32 sets out[i] to the i-th little-endian INT32 of src.
func widenInt32(src []byte, out []int64) {
	src = src[:4*len(out)]
	i := 0
	for ; i+4 <= len(out); i += 4 {
		s := src[4*i : 4*i+16 : 4*i+16]
		o := out[i : i+4 : i+4]
		o[0] = int64(int32(binary.LittleEndian.Uint32(s[0:])))
		o[1] = int64(int32(binary.LittleEndian.Uint32(s[4:])))
		o[2] = int64(int32(binary.LittleEndian.Uint32(s[8:])))
		o[3] = int64(int32(binary.LittleEndian.Uint32(s[12:])))
	}
	for ; i < len(out); i++ {
		out[i] = int64(int32(binary.LittleEndian.Uint32(src[4*i:])))
	}
}

// widenUint32 sets out[i] to the i-th little-endian UINT32 of src.
func widenUint32(src []byte, out []int64) {
	src = src[:4*len(out)]
	i := 0
	for ; i+4 <= len(out); i += 4 {
		s := src[4*i : 4*i+16 : 4*i+16]
		o := out[i : i+4 : i+4]
		o[0] = int64(binary.LittleEndian.Uint32(s[0:]))
		o[1] = int64(binary.LittleEndian.Uint32(s[4:]))
		o[2] = int64(binary.LittleEndian.Uint32(s[8:]))
		o[3] = int64(binary.LittleEndian.Uint32(s[12:]))
	}
	for ; i < len(out); i++ {
		out[i] = int64(binary.LittleEndian.Uint32(src[4*i:]))
	}
}

// widenFloat32 sets out[i] to the i-th little-endian FLOAT of src.
func widenFloat32(src []byte, out []float64) {
	src = src[:4*len(out)]
	i := 0
	for ; i+4 <= len(out); i += 4 {
		s := src[4*i : 4*i+16 : 4*i+16]
		o := out[i : i+4 : i+4]
		o[0] = float64(math.Float32frombits(binary.LittleEndian.Uint32(s[0:])))
		o[1] = float64(math.Float32frombits(binary.LittleEndian.Uint32(s[4:])))
		o[2] = float64(math.Float32frombits(binary.LittleEndian.Uint32(s[8:])))
		o[3] = float64(math.Float32frombits(binary.LittleEndian.Uint32(s[12:])))
	}
	for ; i < len(out); i++ {
		out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
	}
}

// fillPlain fills rows [at, at+len(defs)) of v, one per definition level,
// from the PLAIN values of column c in src starting at value vpos: rows
// whose level is below maxDef get 0 and use no value. src holds every
// value the levels ask for. It returns the values used.
// Where NULLs are sparse (sparse: the page's values come in runs of
// minPlainRun*2 on average or longer), each run of values is converted
// as a page without NULLs is, a copy for DOUBLE and plain INT64; else row
// by row (fillPlainRows), where finding the runs would cost more than
// it saves (1% NULLs: 3x faster by runs; 50%: 2x slower).
func fillPlain(c *column, src []byte, vpos int, defs []int32, maxDef int32, v *columnar.Vector, at int, sparse bool) int {
	if !sparse {
		return fillPlainRows(c, src, vpos, defs, maxDef, v, at)
	}
	start, w := vpos, fixedWidth(c)
	var ints []int64
	var floats []float64
	if floatKind(c.kind) {
		floats = v.Floats[at : at+len(defs)]
	} else {
		ints = v.Ints[at : at+len(defs)]
	}
	for j := 0; j < len(defs); {
		if defs[j] != maxDef {
			if floats != nil {
				floats[j] = 0
			} else {
				ints[j] = 0
			}
			j++
			continue
		}
		k := j + 1
		for k < len(defs) && defs[k] == maxDef {
			k++
		}
		// A run of values is converted as a page without NULLs is (a
		// copy for DOUBLE and plain INT64); a short one value by value,
		// where the call would cost more than the values.
		if n := k - j; n >= minPlainRun {
			if floats != nil {
				convertPlain(c, src[w*vpos:w*(vpos+n)], nil, floats[j:k])
			} else {
				convertPlain(c, src[w*vpos:w*(vpos+n)], ints[j:k], nil)
			}
			vpos += n
		} else {
			for ; j < k; j++ {
				if floats != nil {
					floats[j] = plainFloat(c, src, vpos)
				} else {
					ints[j] = plainInt(c, src, vpos)
				}
				vpos++
			}
		}
		j = k
	}
	return vpos - start
}

// minPlainRun is the shortest run of values fillPlain converts in one
// convertPlain call.
const minPlainRun = 8

// plainFloat is PLAIN float value i of column c.
func plainFloat(c *column, src []byte, i int) float64 {
	if c.kind == kFloat32 {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:]))
}

// fillPlainRows is fillPlain converting row by row.
func fillPlainRows(c *column, src []byte, vpos int, defs []int32, maxDef int32, v *columnar.Vector, at int) int {
	start := vpos
	switch c.kind {
	case kInt32, kUint32, kInt64:
		out := v.Ints[at : at+len(defs)]
		for j, d := range defs {
			if d == maxDef {
				out[j] = plainInt(c, src, vpos)
				vpos++
			} else {
				out[j] = 0
			}
		}
	case kFloat32:
		out := v.Floats[at : at+len(defs)]
		for j, d := range defs {
			if d == maxDef {
				out[j] = float64(math.Float32frombits(binary.LittleEndian.Uint32(src[4*vpos:])))
				vpos++
			} else {
				out[j] = 0
			}
		}
	case kFloat64:
		out := v.Floats[at : at+len(defs)]
		for j, d := range defs {
			if d == maxDef {
				out[j] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*vpos:]))
				vpos++
			} else {
				out[j] = 0
			}
		}
	}
	return vpos - start
}

// plainInt is PLAIN integer value i of column c, converted as
// convertPlain converts it.
func plainInt(c *column, src []byte, i int) int64 {
	switch c.kind {
	case kInt32:
		return int64(int32(binary.LittleEndian.Uint32(src[4*i:]))) * c.mul
	case kUint32:
		return int64(binary.LittleEndian.Uint32(src[4*i:]))
	}
	return convInt(int64(binary.LittleEndian.Uint64(src[8*i:])), c.mul, c.div)
}
