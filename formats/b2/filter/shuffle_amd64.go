//go:build !purego

package filter

import "golang.org/x/sys/cpu"

// SSE2 kernels from shuffle_amd64.s. SSE2 is part of the amd64 baseline, so
// they need no CPU feature check; build with -tags purego to compare with
// the portable code. The AVX2 kernels in shuffle_avx2_amd64.s (32 columns
// per step) run where the CPU has AVX2: unshuffle for 2, 4 and 8 planes and
// the bit untranspose.

var hasAVX2 = cpu.X86.HasAVX2

// useAVX2 is a variable so tests can run the SSE2 kernels too.
var useAVX2 = hasAVX2

//go:noescape
func unshuffle8x32(dst, src *byte, stride, blocks int)

//go:noescape
func bitUntranspose8x32(dst, src *byte, stride, blocks int)

//go:noescape
func unshuffle4x32(dst, src *byte, stride, blocks int)

//go:noescape
func unshuffle2x32(dst, src *byte, stride, blocks int)

//go:noescape
func unshuffle2x16(dst, src *byte, stride, blocks int)

//go:noescape
func unshuffle4x16(dst, src *byte, stride, blocks int)

//go:noescape
func unshuffle8x16(dst, src *byte, stride, blocks int)

//go:noescape
func bitUntranspose8x16(dst, src *byte, stride, blocks int)

// unshuffleAsm interleaves the first 16*k elements of the w planes of src
// (w = 2, 4 or 8, len(src) a multiple of w) into dst and returns 16*k.
func unshuffleAsm(dst, src []byte, w int) int {
	m := len(src) / w
	blocks := m / 16
	if blocks == 0 {
		return 0
	}
	// The kernels read 16*blocks bytes of each plane and write 16*blocks*w
	// bytes; make any violation a Go panic, not memory corruption.
	_ = src[(w-1)*m+16*blocks-1]
	_ = dst[16*blocks*w-1]
	total := 16 * blocks
	if useAVX2 && blocks >= 2 {
		// 32 elements per step, then at most one 16-element step.
		half := blocks / 2
		switch w {
		case 2:
			unshuffle2x32(&dst[0], &src[0], m, half)
		case 4:
			unshuffle4x32(&dst[0], &src[0], m, half)
		case 8:
			unshuffle8x32(&dst[0], &src[0], m, half)
		default:
			return 0
		}
		if blocks%2 == 0 {
			return total
		}
		k := 32 * half // first element left
		dst, src = dst[k*w:], src[k:]
		blocks = 1
	}
	switch w {
	case 2:
		unshuffle2x16(&dst[0], &src[0], m, blocks)
	case 4:
		unshuffle4x16(&dst[0], &src[0], m, blocks)
	case 8:
		unshuffle8x16(&dst[0], &src[0], m, blocks)
	default:
		return 0
	}
	return total
}

// bitUntransposeAsm does bitUntransposeRows for the first 16*k row bytes
// (16*k <= len(out)/8) and returns 16*k.
func bitUntransposeAsm(out, rows []byte, rowLen, col int) int {
	blocks := len(out) / 128
	if blocks == 0 {
		return 0
	}
	_ = rows[7*rowLen+col+16*blocks-1]
	_ = out[128*blocks-1]
	if useAVX2 && blocks >= 2 {
		bitUntranspose8x32(&out[0], &rows[col], rowLen, blocks/2)
		if blocks%2 == 0 {
			return 16 * blocks
		}
		k := blocks - 1
		bitUntranspose8x16(&out[128*k], &rows[col+16*k], rowLen, 1)
		return 16 * blocks
	}
	bitUntranspose8x16(&out[0], &rows[col], rowLen, blocks)
	return 16 * blocks
}

//go:noescape
func unshuffle8x16w(dst, src *byte, stride, blocks, dstStride int)

//go:noescape
func unshuffle4x16w(dst, src *byte, stride, blocks, dstStride int)

//go:noescape
func unshuffle2x16w(dst, src *byte, stride, blocks, dstStride int)

// unshuffleGroupAsm interleaves planes [j, j+g) (g = 8, 4 or 2) of the w
// planes of src into bytes [j, j+g) of the first 16*k elements of dst and
// returns 16*k. len(src) is a multiple of w.
func unshuffleGroupAsm(dst, src []byte, w, j, g int) int {
	m := len(src) / w
	blocks := m / 16
	if blocks == 0 {
		return 0
	}
	_ = src[(j+g-1)*m+16*blocks-1]
	_ = dst[(16*blocks-1)*w+j+g-1]
	switch g {
	case 8:
		unshuffle8x16w(&dst[j], &src[j*m], m, blocks, w)
	case 4:
		unshuffle4x16w(&dst[j], &src[j*m], m, blocks, w)
	case 2:
		unshuffle2x16w(&dst[j], &src[j*m], m, blocks, w)
	default:
		return 0
	}
	return 16 * blocks
}

//go:noescape
func shuffle2x16(dst, src *byte, stride, blocks int)

//go:noescape
func shuffle4x16(dst, src *byte, stride, blocks int)

//go:noescape
func shuffle8x16(dst, src *byte, stride, blocks int)

// shuffleAsm splits the first 16*k elements of src (w = 2, 4 or 8,
// len(src) a multiple of w) into the w planes of dst and returns 16*k.
func shuffleAsm(dst, src []byte, w int) int {
	m := len(src) / w
	blocks := m / 16
	if blocks == 0 {
		return 0
	}
	_ = dst[(w-1)*m+16*blocks-1]
	_ = src[16*blocks*w-1]
	switch w {
	case 2:
		shuffle2x16(&dst[0], &src[0], m, blocks)
	case 4:
		shuffle4x16(&dst[0], &src[0], m, blocks)
	case 8:
		shuffle8x16(&dst[0], &src[0], m, blocks)
	default:
		return 0
	}
	return 16 * blocks
}

//go:noescape
func bitTranspose8x16(dst, src *byte, stride, blocks int)

// bitTransposeAsm does bitTransposeRows for the first 16*k row bytes
// (16*k <= len(in)/8) and returns 16*k.
func bitTransposeAsm(rows []byte, rowLen, col int, in []byte) int {
	blocks := len(in) / 128
	if blocks == 0 {
		return 0
	}
	_ = rows[7*rowLen+col+16*blocks-1]
	_ = in[128*blocks-1]
	bitTranspose8x16(&rows[col], &in[0], rowLen, blocks)
	return 16 * blocks
}

//go:noescape
func shuffle8x16w(dst, src *byte, stride, blocks, srcStride int)

// shuffleGroupAsm splits bytes [j, j+8) of the first 16*k elements of src
// (w-byte elements, len(src) a multiple of w) into planes [j, j+8) of dst
// and returns 16*k. Only groups of 8 have a kernel; others return 0.
func shuffleGroupAsm(dst, src []byte, w, j, g int) int {
	m := len(src) / w
	blocks := m / 16
	if blocks == 0 || g != 8 {
		return 0
	}
	_ = src[(16*blocks-1)*w+j+7]
	_ = dst[(j+7)*m+16*blocks-1]
	shuffle8x16w(&dst[j*m], &src[j], m, blocks, w)
	return 16 * blocks
}
