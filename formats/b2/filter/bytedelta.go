package filter

// ByteDeltaEncode writes blosc2's BYTEDELTA filter (id 35) output into
// dst[:len(src)]: the first len(src)/typesize*typesize bytes are typesize
// consecutive channels of len(src)/typesize bytes (the byte planes SHUFFLE
// made), and each channel byte becomes its difference from the previous one
// (mod 256, the first from 0). Trailing bytes (len(src) % typesize, the
// end of a block that does not fill a whole item) are copied unchanged, as
// c-blosc2 ≥ 3.3.2 does in both directions (plugins/filters/bytedelta).
// c-blosc2 2.10–3.3.1 left those bytes out of its output altogether, so in
// its files they hold whatever its buffer held: they decode here, as in
// c-blosc2 ≥ 3.3.2, to unspecified bytes, and nothing in the file can tell.
// Blocks whose length is a multiple of typesize (every b2nd block, every
// frame whose blocksize is a multiple of the typesize) are the same in all
// versions. typesize < 1 is treated as 1. dst must not overlap src.
func ByteDeltaEncode(dst, src []byte, typesize int) {
	dst = dst[:len(src)]
	typesize = max(typesize, 1)
	l := len(src) / typesize
	for c := range typesize {
		in := src[c*l : (c+1)*l]
		out := dst[c*l : (c+1)*l]
		i := byteDeltaEncodeAsm(out, in)
		var prev byte
		if i > 0 {
			prev = in[i-1]
		}
		for ; i < len(in); i++ {
			b := in[i]
			out[i] = b - prev
			prev = b
		}
	}
	n := l * typesize
	copy(dst[n:], src[n:])
}

// ByteDeltaDecode inverts ByteDeltaEncode (a running byte sum per channel).
// dst may be src itself; otherwise they must not overlap.
func ByteDeltaDecode(dst, src []byte, typesize int) {
	dst = dst[:len(src)]
	typesize = max(typesize, 1)
	l := len(src) / typesize
	for c := range typesize {
		in := src[c*l : (c+1)*l]
		out := dst[c*l : (c+1)*l]
		i := byteDeltaDecodeAsm(out, in)
		var sum byte
		if i > 0 {
			sum = out[i-1]
		}
		for ; i < len(in); i++ {
			sum += in[i]
			out[i] = sum
		}
	}
	n := l * typesize
	copy(dst[n:], src[n:])
}
