package filter

import "encoding/binary"

// Shuffle writes the byte-shuffled form of src into dst[:len(src)]: with
// m = len(src)/typesize elements, byte j of element i moves to dst[j*m+i], so
// equal-significance bytes sit together. The len(src)%typesize trailing bytes
// are copied unchanged, as c-blosc2 does. typesize <= 1 copies.
func Shuffle(dst, src []byte, typesize int) {
	dst = dst[:len(src)]
	if typesize <= 1 || len(src) < 2*typesize {
		copy(dst, src)
		return
	}
	m := len(src) / typesize
	n := m * typesize
	switch typesize {
	case 2:
		shuffle2(dst[:n], src[:n])
	case 4:
		shuffle4(dst[:n], src[:n])
	case 8:
		shuffle8(dst[:n], src[:n])
	default:
		shuffleGeneric(dst[:n], src[:n], typesize)
	}
	copy(dst[n:], src[n:])
}

// Unshuffle inverts Shuffle: dst[i*typesize+j] = src[j*m+i], trailing
// len(src)%typesize bytes copied unchanged. typesize <= 1 copies.
func Unshuffle(dst, src []byte, typesize int) {
	dst = dst[:len(src)]
	if typesize <= 1 || len(src) < 2*typesize {
		copy(dst, src)
		return
	}
	m := len(src) / typesize
	n := m * typesize
	switch typesize {
	case 2:
		unshuffle2(dst[:n], src[:n])
	case 4:
		unshuffle4(dst[:n], src[:n])
	case 8:
		unshuffle8(dst[:n], src[:n])
	default:
		unshuffleGeneric(dst[:n], src[:n], typesize)
	}
	copy(dst[n:], src[n:])
}

// shuffleGeneric splits any number of planes; len(src) is a multiple of
// w. A vector kernel takes the planes 8 at a time; the rest, and the
// elements past the last group of 16, go bytewise.
func shuffleGeneric(dst, src []byte, w int) {
	m := len(src) / w
	for j := 0; j < w; {
		g := 1
		if w-j >= 8 {
			g = 8
		}
		done := shuffleGroupAsm(dst, src, w, j, g)
		for k := j; k < j+g; k++ {
			plane := dst[k*m : (k+1)*m]
			s := src[k:]
			for i := done; i < m; i++ {
				plane[i] = s[i*w]
			}
		}
		j += g
	}
}

// unshuffleGeneric interleaves any number of planes; len(src) is a
// multiple of w. Vector kernels take the planes 8, 4 or 2 at a time; the
// last plane (odd w) and the elements past the last group of 16 go bytewise.
func unshuffleGeneric(dst, src []byte, w int) {
	m := len(src) / w
	for j := 0; j < w; {
		g := 1
		switch {
		case w-j >= 8:
			g = 8
		case w-j >= 4:
			g = 4
		case w-j >= 2:
			g = 2
		}
		done := 0
		if g > 1 {
			done = unshuffleGroupAsm(dst, src, w, j, g)
		}
		for k := j; k < j+g; k++ {
			plane := src[k*m : (k+1)*m]
			d := dst[k:]
			for i := done; i < m; i++ {
				d[i*w] = plane[i]
			}
		}
		j += g
	}
}

// transpose8x8 transposes the 8×8 byte matrix whose row r is word r and
// column c is byte c (little-endian): afterwards byte c of word r is the old
// byte r of word c. Three rounds swap 4×4, 2×2 and 1×1 sub-blocks.
func transpose8x8(a0, a1, a2, a3, a4, a5, a6, a7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	const m32 = 0x00000000FFFFFFFF
	const m16 = 0x0000FFFF0000FFFF
	const m8 = 0x00FF00FF00FF00FF
	var t uint64
	t = (a0>>32 ^ a4) & m32
	a4 ^= t
	a0 ^= t << 32
	t = (a1>>32 ^ a5) & m32
	a5 ^= t
	a1 ^= t << 32
	t = (a2>>32 ^ a6) & m32
	a6 ^= t
	a2 ^= t << 32
	t = (a3>>32 ^ a7) & m32
	a7 ^= t
	a3 ^= t << 32

	t = (a0>>16 ^ a2) & m16
	a2 ^= t
	a0 ^= t << 16
	t = (a1>>16 ^ a3) & m16
	a3 ^= t
	a1 ^= t << 16
	t = (a4>>16 ^ a6) & m16
	a6 ^= t
	a4 ^= t << 16
	t = (a5>>16 ^ a7) & m16
	a7 ^= t
	a5 ^= t << 16

	t = (a0>>8 ^ a1) & m8
	a1 ^= t
	a0 ^= t << 8
	t = (a2>>8 ^ a3) & m8
	a3 ^= t
	a2 ^= t << 8
	t = (a4>>8 ^ a5) & m8
	a5 ^= t
	a4 ^= t << 8
	t = (a6>>8 ^ a7) & m8
	a7 ^= t
	a6 ^= t << 8
	return a0, a1, a2, a3, a4, a5, a6, a7
}

// unshuffle8 interleaves 8 planes, 8 elements (64 bytes) per step.
func unshuffle8(dst, src []byte) {
	m := len(src) / 8
	i := unshuffleAsm(dst, src, 8)
	p0, p1, p2, p3 := src[0*m:1*m], src[1*m:2*m], src[2*m:3*m], src[3*m:4*m]
	p4, p5, p6, p7 := src[4*m:5*m], src[5*m:6*m], src[6*m:7*m], src[7*m:8*m]
	for ; i+8 <= m; i += 8 {
		a0, a1, a2, a3, a4, a5, a6, a7 := transpose8x8(
			binary.LittleEndian.Uint64(p0[i:]), binary.LittleEndian.Uint64(p1[i:]),
			binary.LittleEndian.Uint64(p2[i:]), binary.LittleEndian.Uint64(p3[i:]),
			binary.LittleEndian.Uint64(p4[i:]), binary.LittleEndian.Uint64(p5[i:]),
			binary.LittleEndian.Uint64(p6[i:]), binary.LittleEndian.Uint64(p7[i:]))
		d := dst[i*8 : i*8+64]
		binary.LittleEndian.PutUint64(d[0:], a0)
		binary.LittleEndian.PutUint64(d[8:], a1)
		binary.LittleEndian.PutUint64(d[16:], a2)
		binary.LittleEndian.PutUint64(d[24:], a3)
		binary.LittleEndian.PutUint64(d[32:], a4)
		binary.LittleEndian.PutUint64(d[40:], a5)
		binary.LittleEndian.PutUint64(d[48:], a6)
		binary.LittleEndian.PutUint64(d[56:], a7)
	}
	for ; i < m; i++ {
		d := dst[i*8 : i*8+8]
		d[0], d[1], d[2], d[3] = p0[i], p1[i], p2[i], p3[i]
		d[4], d[5], d[6], d[7] = p4[i], p5[i], p6[i], p7[i]
	}
}

// shuffle8 splits 8-byte elements into 8 planes, 8 elements per step.
func shuffle8(dst, src []byte) {
	m := len(src) / 8
	p0, p1, p2, p3 := dst[0*m:1*m], dst[1*m:2*m], dst[2*m:3*m], dst[3*m:4*m]
	p4, p5, p6, p7 := dst[4*m:5*m], dst[5*m:6*m], dst[6*m:7*m], dst[7*m:8*m]
	i := shuffleAsm(dst, src, 8)
	for ; i+8 <= m; i += 8 {
		s := src[i*8 : i*8+64]
		a0, a1, a2, a3, a4, a5, a6, a7 := transpose8x8(
			binary.LittleEndian.Uint64(s[0:]), binary.LittleEndian.Uint64(s[8:]),
			binary.LittleEndian.Uint64(s[16:]), binary.LittleEndian.Uint64(s[24:]),
			binary.LittleEndian.Uint64(s[32:]), binary.LittleEndian.Uint64(s[40:]),
			binary.LittleEndian.Uint64(s[48:]), binary.LittleEndian.Uint64(s[56:]))
		binary.LittleEndian.PutUint64(p0[i:], a0)
		binary.LittleEndian.PutUint64(p1[i:], a1)
		binary.LittleEndian.PutUint64(p2[i:], a2)
		binary.LittleEndian.PutUint64(p3[i:], a3)
		binary.LittleEndian.PutUint64(p4[i:], a4)
		binary.LittleEndian.PutUint64(p5[i:], a5)
		binary.LittleEndian.PutUint64(p6[i:], a6)
		binary.LittleEndian.PutUint64(p7[i:], a7)
	}
	for ; i < m; i++ {
		s := src[i*8 : i*8+8]
		p0[i], p1[i], p2[i], p3[i] = s[0], s[1], s[2], s[3]
		p4[i], p5[i], p6[i], p7[i] = s[4], s[5], s[6], s[7]
	}
}

// transpose4x8 treats each word as two independent 4×4 byte matrices (low
// and high halves) and transposes both: afterwards byte c of the low half of
// word r is the old byte r of the low half of word c, likewise for the high
// halves.
func transpose4x8(a0, a1, a2, a3 uint64) (uint64, uint64, uint64, uint64) {
	const m16 = 0x0000FFFF0000FFFF
	const m8 = 0x00FF00FF00FF00FF
	var t uint64
	t = (a0>>16 ^ a2) & m16
	a2 ^= t
	a0 ^= t << 16
	t = (a1>>16 ^ a3) & m16
	a3 ^= t
	a1 ^= t << 16
	t = (a0>>8 ^ a1) & m8
	a1 ^= t
	a0 ^= t << 8
	t = (a2>>8 ^ a3) & m8
	a3 ^= t
	a2 ^= t << 8
	return a0, a1, a2, a3
}

// unshuffle4 interleaves 4 planes, 8 elements (32 bytes) per step.
func unshuffle4(dst, src []byte) {
	m := len(src) / 4
	i := unshuffleAsm(dst, src, 4)
	p0, p1, p2, p3 := src[0*m:1*m], src[1*m:2*m], src[2*m:3*m], src[3*m:4*m]
	for ; i+8 <= m; i += 8 {
		// Word j holds byte j of elements i..i+7; after the transpose the
		// low half of word j is element i+j, the high half element i+4+j.
		a0, a1, a2, a3 := transpose4x8(
			binary.LittleEndian.Uint64(p0[i:]), binary.LittleEndian.Uint64(p1[i:]),
			binary.LittleEndian.Uint64(p2[i:]), binary.LittleEndian.Uint64(p3[i:]))
		d := dst[i*4 : i*4+32]
		binary.LittleEndian.PutUint64(d[0:], a0&0xFFFFFFFF|a1<<32)
		binary.LittleEndian.PutUint64(d[8:], a2&0xFFFFFFFF|a3<<32)
		binary.LittleEndian.PutUint64(d[16:], a0>>32|a1&0xFFFFFFFF00000000)
		binary.LittleEndian.PutUint64(d[24:], a2>>32|a3&0xFFFFFFFF00000000)
	}
	for ; i < m; i++ {
		d := dst[i*4 : i*4+4]
		d[0], d[1], d[2], d[3] = p0[i], p1[i], p2[i], p3[i]
	}
}

// shuffle4 splits 4-byte elements into 4 planes, 8 elements per step.
func shuffle4(dst, src []byte) {
	m := len(src) / 4
	p0, p1, p2, p3 := dst[0*m:1*m], dst[1*m:2*m], dst[2*m:3*m], dst[3*m:4*m]
	i := shuffleAsm(dst, src, 4)
	for ; i+8 <= m; i += 8 {
		s := src[i*4 : i*4+32]
		w0 := binary.LittleEndian.Uint64(s[0:])  // elements 0, 1
		w1 := binary.LittleEndian.Uint64(s[8:])  // elements 2, 3
		w2 := binary.LittleEndian.Uint64(s[16:]) // elements 4, 5
		w3 := binary.LittleEndian.Uint64(s[24:]) // elements 6, 7
		// Rebuild the unshuffle4 layout (word j = element j | element 4+j)
		// and apply the self-inverse transpose.
		a0, a1, a2, a3 := transpose4x8(
			w0&0xFFFFFFFF|w2<<32, w0>>32|w2&0xFFFFFFFF00000000,
			w1&0xFFFFFFFF|w3<<32, w1>>32|w3&0xFFFFFFFF00000000)
		binary.LittleEndian.PutUint64(p0[i:], a0)
		binary.LittleEndian.PutUint64(p1[i:], a1)
		binary.LittleEndian.PutUint64(p2[i:], a2)
		binary.LittleEndian.PutUint64(p3[i:], a3)
	}
	for ; i < m; i++ {
		s := src[i*4 : i*4+4]
		p0[i], p1[i], p2[i], p3[i] = s[0], s[1], s[2], s[3]
	}
}

// spread16 moves byte k of the low 32 bits of x to byte 2k.
func spread16(x uint64) uint64 {
	x &= 0xFFFFFFFF
	x = (x | x<<16) & 0x0000FFFF0000FFFF
	return (x | x<<8) & 0x00FF00FF00FF00FF
}

// gather16 is the inverse of spread16: byte 2k of x moves to byte k.
func gather16(x uint64) uint64 {
	x &= 0x00FF00FF00FF00FF
	x = (x | x>>8) & 0x0000FFFF0000FFFF
	return (x | x>>16) & 0xFFFFFFFF
}

// unshuffle2 interleaves 2 planes, 8 elements (16 bytes) per step.
func unshuffle2(dst, src []byte) {
	m := len(src) / 2
	i := unshuffleAsm(dst, src, 2)
	p0, p1 := src[:m], src[m:2*m]
	for ; i+8 <= m; i += 8 {
		lo := binary.LittleEndian.Uint64(p0[i:])
		hi := binary.LittleEndian.Uint64(p1[i:])
		d := dst[i*2 : i*2+16]
		binary.LittleEndian.PutUint64(d[0:], spread16(lo)|spread16(hi)<<8)
		binary.LittleEndian.PutUint64(d[8:], spread16(lo>>32)|spread16(hi>>32)<<8)
	}
	for ; i < m; i++ {
		dst[2*i], dst[2*i+1] = p0[i], p1[i]
	}
}

// shuffle2 splits 2-byte elements into 2 planes, 8 elements per step.
func shuffle2(dst, src []byte) {
	m := len(src) / 2
	p0, p1 := dst[:m], dst[m:2*m]
	i := shuffleAsm(dst, src, 2)
	for ; i+8 <= m; i += 8 {
		s := src[i*2 : i*2+16]
		w0 := binary.LittleEndian.Uint64(s[0:])
		w1 := binary.LittleEndian.Uint64(s[8:])
		binary.LittleEndian.PutUint64(p0[i:], gather16(w0)|gather16(w1)<<32)
		binary.LittleEndian.PutUint64(p1[i:], gather16(w0>>8)|gather16(w1>>8)<<32)
	}
	for ; i < m; i++ {
		p0[i], p1[i] = src[2*i], src[2*i+1]
	}
}
