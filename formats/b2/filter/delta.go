package filter

import "encoding/binary"

// deltaWidth is the word width DELTA works in (c-blosc2 blosc/delta.c):
// typesize itself for 1, 2, 4, 8; 8 for other multiples of 8; else 1.
func deltaWidth(typesize int) int {
	switch {
	case typesize == 1 || typesize == 2 || typesize == 4 || typesize == 8:
		return typesize
	case typesize > 0 && typesize%8 == 0:
		return 8
	}
	return 1
}

// DeltaEncode writes blosc2's DELTA filter output for one block into
// dst[:len(src)]. Words are the deltaWidth(typesize) bytes wide; the block's
// len(src)%width trailing bytes are copied unchanged.
//
// DELTA is XOR-based and anchored on the chunk's first block: when
// isFirstBlock, word i becomes src[i] XOR src[i-1] (word 0 is kept) and ref is
// ignored; otherwise word i becomes src[i] XOR ref[i], where ref is the
// original (unfiltered) first block of the same chunk, normally at least
// len(src) bytes (bytes beyond a shorter ref are copied unchanged). dst must
// not overlap src or ref.
func DeltaEncode(dst, src, ref []byte, typesize int, isFirstBlock bool) {
	dst = dst[:len(src)]
	w := deltaWidth(typesize)
	n := len(src) / w * w
	if isFirstBlock {
		// XOR of w-byte words is bytewise, so word i ^ word i-1 is byte b ^
		// byte b-w.
		copy(dst[:min(w, n)], src)
		if n > w {
			xorBytes(dst[w:n], src[w:n], src[:n-w])
		}
	} else {
		xorRef(dst[:n], src[:n], ref)
	}
	copy(dst[n:], src[n:])
}

// xorRef XORs src with the leading bytes of ref into dst. A ref shorter than
// src (possible only in a malformed or VL-blocks chunk, where block 0 may be
// the shorter one) leaves the excess unchanged instead of panicking.
func xorRef(dst, src, ref []byte) {
	k := min(len(src), len(ref))
	xorBytes(dst[:k], src[:k], ref[:k])
	copy(dst[k:], src[k:])
}

// DeltaDecode inverts DeltaEncode for one block. When isFirstBlock the
// block is decoded by a running XOR and ref is ignored; otherwise ref is the
// already decoded first block of the chunk (normally at least len(src)
// bytes; see DeltaEncode), which is why blosc2 readers decode block 0 of a
// DELTA chunk first. dst may be
// src itself (in-place decoding); otherwise they must not overlap, and ref
// must not overlap dst.
func DeltaDecode(dst, src, ref []byte, typesize int, isFirstBlock bool) {
	dst = dst[:len(src)]
	w := deltaWidth(typesize)
	n := len(src) / w * w
	if isFirstBlock {
		prefixXor(dst[:n], src[:n], w)
	} else {
		xorRef(dst[:n], src[:n], ref)
	}
	copy(dst[n:], src[n:])
}

// xorBytes sets dst[i] = a[i] ^ b[i]; the three have equal length. dst may
// be a.
func xorBytes(dst, a, b []byte) {
	i := 0
	for ; i+32 <= len(dst); i += 32 {
		d, x, y := dst[i:i+32], a[i:i+32], b[i:i+32]
		binary.LittleEndian.PutUint64(d[0:], binary.LittleEndian.Uint64(x[0:])^binary.LittleEndian.Uint64(y[0:]))
		binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(x[8:])^binary.LittleEndian.Uint64(y[8:]))
		binary.LittleEndian.PutUint64(d[16:], binary.LittleEndian.Uint64(x[16:])^binary.LittleEndian.Uint64(y[16:]))
		binary.LittleEndian.PutUint64(d[24:], binary.LittleEndian.Uint64(x[24:])^binary.LittleEndian.Uint64(y[24:]))
	}
	for ; i < len(dst); i++ {
		dst[i] = a[i] ^ b[i]
	}
}

// prefixXor sets dst word i (w bytes) to src word 0 ^ … ^ src word i.
// len(src) is a multiple of w; dst may be src.
func prefixXor(dst, src []byte, w int) {
	// Per 8-byte chunk: a log-step XOR scan of the w-byte lanes inside the
	// chunk, XORed with the running XOR c of all earlier lanes broadcast to
	// every lane. Only c ^= (last lane of the scan) is carried from chunk to
	// chunk, so the loop-carried chain is one XOR long.
	i := 0
	switch w {
	case 8:
		var x uint64
		for ; i+16 <= len(src); i += 16 {
			s, d := src[i:i+16], dst[i:i+16]
			x ^= binary.LittleEndian.Uint64(s[0:])
			binary.LittleEndian.PutUint64(d[0:], x)
			x ^= binary.LittleEndian.Uint64(s[8:])
			binary.LittleEndian.PutUint64(d[8:], x)
		}
		if i+8 <= len(src) {
			x ^= binary.LittleEndian.Uint64(src[i:])
			binary.LittleEndian.PutUint64(dst[i:], x)
			i += 8
		}
	case 4:
		var c uint64
		for ; i+8 <= len(src); i += 8 {
			y := binary.LittleEndian.Uint64(src[i:])
			y ^= y << 32
			binary.LittleEndian.PutUint64(dst[i:], y^c*0x0000000100000001)
			c ^= y >> 32
		}
	case 2:
		var c uint64
		for ; i+8 <= len(src); i += 8 {
			y := binary.LittleEndian.Uint64(src[i:])
			y ^= y << 16
			y ^= y << 32
			binary.LittleEndian.PutUint64(dst[i:], y^c*0x0001000100010001)
			c ^= y >> 48
		}
	default: // 1
		var c uint64
		for ; i+8 <= len(src); i += 8 {
			y := binary.LittleEndian.Uint64(src[i:])
			y ^= y << 8
			y ^= y << 16
			y ^= y << 32
			binary.LittleEndian.PutUint64(dst[i:], y^c*0x0101010101010101)
			c ^= y >> 56
		}
	}
	// At most 7 bytes remain (so w < 8): finish bytewise from the words.
	for ; i < len(src); i++ {
		if i < w {
			dst[i] = src[i]
		} else {
			dst[i] = src[i] ^ dst[i-w]
		}
	}
}
