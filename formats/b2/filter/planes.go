package filter

// UnshufflePlanes is Unshuffle for a block whose byte planes are held
// apart: planes[k] holds byte k of each of the block's m elements (all
// planes m bytes long), and dst receives the len(planes)*m interleaved
// bytes. A decoder hands the planes over where they lie, a plane stored
// raw where it is in the chunk and a decompressed one in scratch, instead
// of first copying them next to each other for Unshuffle: byte planes that
// zstd cannot halve are stored raw, so in a column of doubles seven planes
// of eight were copied once more for nothing.
func UnshufflePlanes(dst []byte, planes [][]byte) {
	w := len(planes)
	if w == 0 {
		return
	}
	m := len(planes[0])
	for _, p := range planes {
		if len(p) != m {
			panic("filter: UnshufflePlanes of planes of different lengths")
		}
	}
	dst = dst[:w*m]
	done := unshufflePlanesAsm(dst, planes)
	for k, p := range planes {
		d := dst[k:]
		for i := done; i < m; i++ {
			d[i*w] = p[i]
		}
	}
}

// PlanesKernel reports whether UnshufflePlanes has a vector kernel for w
// planes of m bytes. Without one it interleaves a byte at a time, and
// copying the planes together for Unshuffle is faster.
func PlanesKernel(w, m int) bool { return planesKernel(w, m) }
