package parquet

import (
	"encoding/binary"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet"
)

// BOOLEAN chunks are read by codeReader too: arrow-go's typed reader
// decodes them a batch at a time through its generic level and decoder
// machinery, which cost a group-by over a BOOLEAN column about a sixth of
// its time. Here each data page is expanded once into a page of bools
// (plainB), eight values per table lookup, and handed out as PLAIN
// numbers are (readFixed).
//
// Layout (parquet-format Encodings.md): PLAIN packs one bit per value,
// least significant bit first; RLE (DataPage V2 writers) is a 4-byte
// little-endian length, then that many bytes of the RLE/bit-packed hybrid
// encoding at bit width 1.

// boolPages reports whether column c is a BOOLEAN read as such.
func boolPages(c *column) bool {
	return c.kind == kBool && c.phys == parquet.Types.Boolean
}

// decodeBools decodes the nv values of a BOOLEAN data page of encoding enc
// into out (grown and returned); scratch holds RLE pages' decoded runs.
func decodeBools(enc parquet.Encoding, data []byte, nv int, out []bool, scratch []int32) ([]bool, []int32, error) {
	out = grow(out, nv)
	switch enc {
	case parquet.Encodings.Plain:
		if nv > len(data)*8 {
			return out, scratch, corruptf("%d BOOLEAN values in %d bytes", nv, len(data))
		}
		unpackBools(out, data)
		return out, scratch, nil
	case parquet.Encodings.RLE:
		if len(data) < 4 {
			return out, scratch, corruptf("RLE BOOLEAN page of %d bytes", len(data))
		}
		l := binary.LittleEndian.Uint32(data)
		if uint64(l) > uint64(len(data)-4) {
			return out, scratch, corruptf("RLE BOOLEAN values of %d bytes, page has %d", l, len(data)-4)
		}
		var err error
		scratch, err = decodeHybrid(data[4:4+l], 1, nv, scratch)
		if err != nil {
			return out, scratch, err
		}
		for i, c := range scratch[:nv] {
			out[i] = c != 0
		}
		return out, scratch, nil
	}
	return out, scratch, corruptf("data page encoding %s in a BOOLEAN chunk", enc)
}

// boolBytes maps a byte of 8 PLAIN booleans to those booleans as 8 bytes
// (0 or 1) of a little-endian word.
var boolBytes = func() (t [256]uint64) {
	for b := range 256 {
		for i := range 8 {
			if b>>i&1 != 0 {
				t[b] |= 1 << (8 * i)
			}
		}
	}
	return t
}()

// unpackBools sets out[i] to bit i of src (least significant bit first);
// src holds at least len(out) bits.
func unpackBools(out []bool, src []byte) {
	n := len(out)
	// A bool is one byte holding 0 or 1: write 8 of them at a time.
	ob := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), n)
	i := 0
	for ; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(ob[i:], boolBytes[src[i>>3]])
	}
	for ; i < n; i++ {
		out[i] = src[i>>3]>>(i&7)&1 != 0
	}
}
