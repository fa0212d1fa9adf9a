package parquet

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// decodeHybrid decodes n values of the RLE/bit-packed hybrid encoding
// (Parquet's encoding of dictionary indices and definition levels) of bit
// width bw from src into out, which it grows and returns. Each run starts
// with a ULEB128 header: low bit 1 means (header>>1) groups of 8 values
// bit-packed little-endian, bw bits each; low bit 0 means one value,
// stored in ceil(bw/8) little-endian bytes, repeated header>>1 times. A
// last bit-packed group may hold padding past n, which is dropped.
func decodeHybrid(src []byte, bw int, n int, out []int32) ([]int32, error) {
	if bw < 0 || bw > 32 {
		return out, corruptf("hybrid encoding bit width %d", bw)
	}
	out = out[:0]
	if cap(out) < n {
		out = make([]int32, 0, n)
	}
	for len(out) < n {
		h, k := binary.Uvarint(src)
		if k <= 0 {
			return out, corruptf("hybrid run header truncated after %d of %d values", len(out), n)
		}
		src = src[k:]
		if h&1 == 0 { // RLE run
			cnt := h >> 1
			nb := (bw + 7) / 8
			if len(src) < nb {
				return out, corruptf("hybrid RLE run truncated")
			}
			var v uint32
			for i := nb - 1; i >= 0; i-- {
				v = v<<8 | uint32(src[i])
			}
			src = src[nb:]
			if cnt == 0 || cnt > uint64(n-len(out)) {
				if cnt == 0 {
					return out, corruptf("hybrid RLE run of 0 values")
				}
				cnt = uint64(n - len(out)) // trailing excess in the last run is harmless
			}
			if bw < 32 && v>>uint(bw) != 0 {
				return out, corruptf("hybrid RLE value %d wider than %d bits", v, bw)
			}
			base := len(out)
			out = slices.Grow(out, int(cnt))[:base+int(cnt)]
			fill(out[base:], int32(v))
			continue
		}
		groups := h >> 1
		if groups == 0 {
			return out, corruptf("hybrid bit-packed run of 0 groups")
		}
		if bw > 0 && groups > uint64(len(src)/bw) { // 8 values × bw bits = bw bytes per group
			return out, corruptf("hybrid bit-packed run truncated")
		}
		nbytes := int(groups) * bw
		cnt := n - len(out)
		if groups < uint64(cnt+7)/8 {
			cnt = int(groups) * 8
		}
		// The run's values are in src[:nbytes], but unpack is given the
		// bytes after it too: its 8-byte loads may then reach past the run
		// (the bits past it are masked off), so only the last values of the
		// page, not of every run, go through its byte-by-byte loop (which
		// took half of unpack's time on TPC-H l_returnflag, bit width 2,
		// whose runs are short).
		out = unpack(src, bw, cnt, out)
		src = src[nbytes:]
	}
	return out, nil
}

// unpack appends cnt values of bw bits packed little-endian at the start
// of src (which may hold more bytes after them).
func unpack(src []byte, bw, cnt int, out []int32) []int32 {
	base := len(out)
	out = slices.Grow(out, cnt)[:base+cnt]
	dst := out[base:]
	if bw == 0 {
		clear(dst)
		return out
	}
	mask := uint64(1)<<uint(bw) - 1
	k := 0
	// 32 values at a time by the width's generated function
	// (hybridunpack_gen.go), while their 4×bw bytes are in src.
	for group := unpack32[bw]; k+32 <= cnt && (k+32)*bw <= 8*len(src); k += 32 {
		group(src[k*bw/8:], (*[32]int32)(dst[k:k+32]))
	}
	if bw <= 8 {
		// A group of 8 values is bw bytes: one load per group.
		for ; k+8 <= cnt && k/8*bw+8 <= len(src); k += 8 {
			w := binary.LittleEndian.Uint64(src[k/8*bw:])
			d := dst[k : k+8 : k+8]
			// Shift counts masked to 63 (they are at most 56): Go then
			// shifts without guarding against counts >= 64.
			b := uint(bw)
			d[0] = int32(w & mask)
			d[1] = int32(w >> (b & 63) & mask)
			d[2] = int32(w >> (2 * b & 63) & mask)
			d[3] = int32(w >> (3 * b & 63) & mask)
			d[4] = int32(w >> (4 * b & 63) & mask)
			d[5] = int32(w >> (5 * b & 63) & mask)
			d[6] = int32(w >> (6 * b & 63) & mask)
			d[7] = int32(w >> (7 * b & 63) & mask)
		}
	}
	if bw > 8 && bw <= 24 {
		// A group of 8 values is bw bytes and starts on a byte: value j is
		// an 8-byte load at a byte offset and shift fixed for the whole
		// run, so each value is independent of the previous one.
		var off [8]int
		var sh [8]uint
		for j := range 8 {
			off[j], sh[j] = j*bw>>3, uint(j*bw&7)
		}
		for ; k+8 <= cnt && k/8*bw+bw+8 <= len(src); k += 8 {
			g := src[k/8*bw : k/8*bw+bw+8]
			d := dst[k : k+8 : k+8]
			d[0] = int32(binary.LittleEndian.Uint64(g[off[0]:]) >> (sh[0] & 7) & mask)
			d[1] = int32(binary.LittleEndian.Uint64(g[off[1]:]) >> (sh[1] & 7) & mask)
			d[2] = int32(binary.LittleEndian.Uint64(g[off[2]:]) >> (sh[2] & 7) & mask)
			d[3] = int32(binary.LittleEndian.Uint64(g[off[3]:]) >> (sh[3] & 7) & mask)
			d[4] = int32(binary.LittleEndian.Uint64(g[off[4]:]) >> (sh[4] & 7) & mask)
			d[5] = int32(binary.LittleEndian.Uint64(g[off[5]:]) >> (sh[5] & 7) & mask)
			d[6] = int32(binary.LittleEndian.Uint64(g[off[6]:]) >> (sh[6] & 7) & mask)
			d[7] = int32(binary.LittleEndian.Uint64(g[off[7]:]) >> (sh[7] & 7) & mask)
		}
	}
	// One 8-byte load per value (bw <= 32 bits plus a 7-bit offset fit),
	// while 8 bytes remain; then byte by byte.
	pos := k * bw
	for ; k < cnt && pos>>3+8 <= len(src); k++ {
		w := binary.LittleEndian.Uint64(src[pos>>3:])
		dst[k] = int32(w >> uint(pos&7) & mask)
		pos += bw
	}
	for ; k < cnt; k++ {
		var buf [8]byte
		copy(buf[:], src[pos>>3:])
		w := binary.LittleEndian.Uint64(buf[:])
		dst[k] = int32(w >> uint(pos&7) & mask)
		pos += bw
	}
	return out
}

// levelWidth is the bit width of levels up to max.
func levelWidth(max int16) int { return bits.Len16(uint16(max)) }

// unpackLegacyLevels decodes n levels of the deprecated BIT_PACKED level
// encoding (most significant bit first) of width bw.
func unpackLegacyLevels(src []byte, bw, n int, out []int32) ([]int32, error) {
	if (n*bw+7)/8 > len(src) {
		return out, corruptf("bit-packed levels truncated")
	}
	out = out[:0]
	pos := 0
	for range n {
		var v int32
		for range bw {
			bit := (src[pos>>3] >> (7 - uint(pos&7))) & 1
			v = v<<1 | int32(bit)
			pos++
		}
		out = append(out, v)
	}
	return out, nil
}

func fill(s []int32, v int32) {
	for i := range s {
		s[i] = v
	}
}
