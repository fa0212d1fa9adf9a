//go:build !purego

package filter

import "unsafe"

//go:noescape
func unshuffle8x32o(dst, base *byte, offs *[8]int, blocks int)

//go:noescape
func unshuffle4x32o(dst, base *byte, offs *[8]int, blocks int)

//go:noescape
func unshuffle2x32o(dst, base *byte, offs *[8]int, blocks int)

func planesKernel(w, m int) bool {
	return useAVX2 && m >= 32 && (w == 2 || w == 4 || w == 8)
}

// unshufflePlanesAsm interleaves the first 32*k elements of the planes
// into dst with the AVX2 kernels of shuffle_avx2_amd64.s and returns 32*k
// (0 where no kernel applies). The kernels address plane k as plane 0 plus
// its distance from it: the planes are heap or mapped memory, which does
// not move, and the distances are taken from the slices the caller keeps
// alive across the call.
func unshufflePlanesAsm(dst []byte, planes [][]byte) int {
	w, m := len(planes), len(planes[0])
	if !planesKernel(w, m) {
		return 0
	}
	blocks := m / 32
	var offs [8]int
	base := uintptr(unsafe.Pointer(&planes[0][0]))
	for k, p := range planes {
		_ = p[32*blocks-1] // every plane holds the elements the kernel reads
		offs[k] = int(uintptr(unsafe.Pointer(&p[0])) - base)
	}
	_ = dst[32*blocks*w-1]
	switch w {
	case 2:
		unshuffle2x32o(&dst[0], &planes[0][0], &offs, blocks)
	case 4:
		unshuffle4x32o(&dst[0], &planes[0][0], &offs, blocks)
	default:
		unshuffle8x32o(&dst[0], &planes[0][0], &offs, blocks)
	}
	return 32 * blocks
}
