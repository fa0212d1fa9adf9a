package filter

import "encoding/binary"

// BitShuffle writes the bit-shuffled form of src into dst[:len(src)], as
// blosc2's BITSHUFFLE filter (Masui's bitshuffle, "bit transpose within
// elements"). Only the first m = (len(src)/typesize) &^ 7 elements are
// transformed: they become 8*typesize rows of m bits, row 8*j+k holding bit k
// of byte j of every element (element i at bit i%8 of byte i/8 of the row).
// The remaining bytes — fewer than 8 elements and any partial element — are
// copied unchanged (blosc2's leftover rule for chunk versions >= 3; version 2
// chunks whose element count is not a multiple of 8 were not bit-shuffled at
// all, which the caller must check).
//
// It fails, wrapping ErrInvalidParam, if typesize < 1 or len(dst) < len(src).
func BitShuffle(dst, src []byte, typesize int) error {
	m, n, err := bitshuffleSize(dst, src, typesize)
	if err != nil {
		return err
	}
	if m > 0 {
		bitTile(dst[:n], src[:n], typesize, m, true)
	}
	copy(dst[n:len(src)], src[n:])
	return nil
}

// BitUnshuffle inverts BitShuffle, under the same leftover rule and errors.
func BitUnshuffle(dst, src []byte, typesize int) error {
	m, n, err := bitshuffleSize(dst, src, typesize)
	if err != nil {
		return err
	}
	if m > 0 {
		bitTile(dst[:n], src[:n], typesize, m, false)
	}
	copy(dst[n:len(src)], src[n:])
	return nil
}

// bitshuffleSize returns the number of elements m and bytes n transformed.
func bitshuffleSize(dst, src []byte, typesize int) (m, n int, err error) {
	if typesize < 1 {
		return 0, 0, invalid("bitshuffle typesize %d", typesize)
	}
	if len(dst) < len(src) {
		return 0, 0, invalid("bitshuffle destination of %d bytes for %d", len(dst), len(src))
	}
	m = len(src) / typesize &^ 7
	return m, m * typesize, nil
}

// tileBytes bounds the scratch of one bitshuffle tile: the tile's byte planes
// live there between the bit and the byte transposes, and stay in L1.
const tileBytes = 16 << 10

// bitTile runs the bitshuffle (forward) or its inverse over m elements of
// width w as two transposes per tile of elements: a byte transpose between
// elements and byte planes (Shuffle/Unshuffle) and a bit transpose between a
// byte plane and its 8 bit rows. len(dst) == len(src) == m*w, m%8 == 0.
func bitTile(dst, src []byte, w, m int, forward bool) {
	rowLen := m / 8
	if w == 1 {
		// The single byte plane is the data itself: no byte transpose.
		if forward {
			bitTransposeRows(dst, rowLen, 0, src)
		} else {
			bitUntransposeRows(dst, src, rowLen, 0)
		}
		return
	}
	var scratch [tileBytes]byte
	buf := scratch[:]
	tile := tileBytes / w &^ 63 // whole 64-element groups keep the word paths busy
	if tile == 0 {
		tile = tileBytes / w &^ 7
		if tile == 0 {
			tile = 8
			buf = make([]byte, 8*w)
		}
	}
	for t0 := 0; t0 < m; t0 += tile {
		tw := min(tile, m-t0)
		planes := buf[:tw*w]
		d := dst[t0*w : (t0+tw)*w]
		if forward {
			Shuffle(planes, src[t0*w:(t0+tw)*w], w)
			for j := range w {
				bitTransposeRows(dst[8*j*rowLen:], rowLen, t0/8, planes[j*tw:(j+1)*tw])
			}
		} else {
			for j := range w {
				bitUntransposeRows(planes[j*tw:(j+1)*tw], src[8*j*rowLen:], rowLen, t0/8)
			}
			Unshuffle(d, planes, w)
		}
	}
}

// transposeBits transposes the 8×8 bit matrix whose row r is byte r and
// column c is bit c of x: afterwards bit c of byte r is the old bit r of
// byte c. Each round swaps the off-diagonal halves of 2×2, 4×4, 8×8 blocks.
func transposeBits(x uint64) uint64 {
	t := (x ^ x>>7) & 0x00AA00AA00AA00AA
	x ^= t ^ t<<7
	t = (x ^ x>>14) & 0x0000CCCC0000CCCC
	x ^= t ^ t<<14
	t = (x ^ x>>28) & 0x00000000F0F0F0F0
	x ^= t ^ t<<28
	return x
}

// bitUntransposeRows rebuilds len(out) bytes of one byte plane (8 bits per
// element, element e in out[e]) from the 8 bit rows starting at rows, each
// rowLen bytes apart, reading len(out)/8 bytes of each row from byte col.
func bitUntransposeRows(out, rows []byte, rowLen, col int) {
	nb := len(out) / 8
	r0 := rows[0*rowLen+col:]
	r1 := rows[1*rowLen+col:]
	r2 := rows[2*rowLen+col:]
	r3 := rows[3*rowLen+col:]
	r4 := rows[4*rowLen+col:]
	r5 := rows[5*rowLen+col:]
	r6 := rows[6*rowLen+col:]
	r7 := rows[7*rowLen+col:]
	c := bitUntransposeAsm(out, rows, rowLen, col)
	for ; c+8 <= nb; c += 8 {
		// Word k holds bit k of 64 elements; the byte transpose gathers, per
		// group of 8 elements, one byte from each row, and the bit transpose
		// turns those 8 bytes into the 8 elements' bytes.
		y0, y1, y2, y3, y4, y5, y6, y7 := transpose8x8(
			binary.LittleEndian.Uint64(r0[c:]), binary.LittleEndian.Uint64(r1[c:]),
			binary.LittleEndian.Uint64(r2[c:]), binary.LittleEndian.Uint64(r3[c:]),
			binary.LittleEndian.Uint64(r4[c:]), binary.LittleEndian.Uint64(r5[c:]),
			binary.LittleEndian.Uint64(r6[c:]), binary.LittleEndian.Uint64(r7[c:]))
		o := out[8*c : 8*c+64]
		binary.LittleEndian.PutUint64(o[0:], transposeBits(y0))
		binary.LittleEndian.PutUint64(o[8:], transposeBits(y1))
		binary.LittleEndian.PutUint64(o[16:], transposeBits(y2))
		binary.LittleEndian.PutUint64(o[24:], transposeBits(y3))
		binary.LittleEndian.PutUint64(o[32:], transposeBits(y4))
		binary.LittleEndian.PutUint64(o[40:], transposeBits(y5))
		binary.LittleEndian.PutUint64(o[48:], transposeBits(y6))
		binary.LittleEndian.PutUint64(o[56:], transposeBits(y7))
	}
	for ; c < nb; c++ {
		y := uint64(r0[c]) | uint64(r1[c])<<8 | uint64(r2[c])<<16 | uint64(r3[c])<<24 |
			uint64(r4[c])<<32 | uint64(r5[c])<<40 | uint64(r6[c])<<48 | uint64(r7[c])<<56
		binary.LittleEndian.PutUint64(out[8*c:], transposeBits(y))
	}
}

// bitTransposeRows is the inverse of bitUntransposeRows: it spreads the byte
// plane in into 8 bit rows starting at rows (rowLen bytes apart), writing
// len(in)/8 bytes of each row from byte col.
func bitTransposeRows(rows []byte, rowLen, col int, in []byte) {
	nb := len(in) / 8
	r0 := rows[0*rowLen+col : 0*rowLen+col+nb]
	r1 := rows[1*rowLen+col : 1*rowLen+col+nb]
	r2 := rows[2*rowLen+col : 2*rowLen+col+nb]
	r3 := rows[3*rowLen+col : 3*rowLen+col+nb]
	r4 := rows[4*rowLen+col : 4*rowLen+col+nb]
	r5 := rows[5*rowLen+col : 5*rowLen+col+nb]
	r6 := rows[6*rowLen+col : 6*rowLen+col+nb]
	r7 := rows[7*rowLen+col : 7*rowLen+col+nb]
	c := bitTransposeAsm(rows, rowLen, col, in)
	for ; c+8 <= nb; c += 8 {
		s := in[8*c : 8*c+64]
		x0, x1, x2, x3, x4, x5, x6, x7 := transpose8x8(
			transposeBits(binary.LittleEndian.Uint64(s[0:])), transposeBits(binary.LittleEndian.Uint64(s[8:])),
			transposeBits(binary.LittleEndian.Uint64(s[16:])), transposeBits(binary.LittleEndian.Uint64(s[24:])),
			transposeBits(binary.LittleEndian.Uint64(s[32:])), transposeBits(binary.LittleEndian.Uint64(s[40:])),
			transposeBits(binary.LittleEndian.Uint64(s[48:])), transposeBits(binary.LittleEndian.Uint64(s[56:])))
		binary.LittleEndian.PutUint64(r0[c:], x0)
		binary.LittleEndian.PutUint64(r1[c:], x1)
		binary.LittleEndian.PutUint64(r2[c:], x2)
		binary.LittleEndian.PutUint64(r3[c:], x3)
		binary.LittleEndian.PutUint64(r4[c:], x4)
		binary.LittleEndian.PutUint64(r5[c:], x5)
		binary.LittleEndian.PutUint64(r6[c:], x6)
		binary.LittleEndian.PutUint64(r7[c:], x7)
	}
	for ; c < nb; c++ {
		y := transposeBits(binary.LittleEndian.Uint64(in[8*c:]))
		r0[c], r1[c], r2[c], r3[c] = byte(y), byte(y>>8), byte(y>>16), byte(y>>24)
		r4[c], r5[c], r6[c], r7[c] = byte(y>>32), byte(y>>40), byte(y>>48), byte(y>>56)
	}
}
