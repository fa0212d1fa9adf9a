package filter

import "encoding/binary"

// TruncPrec writes blosc2's TRUNC_PREC filter output into dst[:len(src)]:
// each float32 (typesize 4) or float64 (typesize 8) keeps only some
// mantissa bits, the others are zeroed (lossy; the filter has no inverse and
// a reader skips it). precBits is the filter's meta byte read as int8: p >= 0
// keeps p mantissa bits, p < 0 zeroes -p bits. As in c-blosc2 it is an error
// (wrapping ErrInvalidParam) to name another typesize, |p| beyond the
// mantissa (23 or 52 bits) or to zero the whole mantissa (which could turn a
// NaN into an infinity). Trailing bytes are copied unchanged.
func TruncPrec(dst, src []byte, typesize int, precBits int) error {
	var mantissa int
	switch typesize {
	case 4:
		mantissa = 23
	case 8:
		mantissa = 52
	default:
		return invalid("trunc_prec typesize %d (want 4 or 8)", typesize)
	}
	if precBits > mantissa || precBits < -mantissa {
		return invalid("trunc_prec precision %d beyond %d mantissa bits", precBits, mantissa)
	}
	zeroed := -precBits
	if precBits >= 0 {
		zeroed = mantissa - precBits
	}
	if zeroed >= mantissa {
		return invalid("trunc_prec would zero all %d mantissa bits", mantissa)
	}
	if len(dst) < len(src) {
		return invalid("trunc_prec destination of %d bytes for %d", len(dst), len(src))
	}
	dst = dst[:len(src)]
	mask := ^uint64(0) << zeroed
	n := len(src) / typesize * typesize
	if typesize == 4 {
		m := uint32(mask)
		for i := 0; i < n; i += 4 {
			binary.LittleEndian.PutUint32(dst[i:], binary.LittleEndian.Uint32(src[i:])&m)
		}
	} else {
		for i := 0; i < n; i += 8 {
			binary.LittleEndian.PutUint64(dst[i:], binary.LittleEndian.Uint64(src[i:])&mask)
		}
	}
	copy(dst[n:], src[n:])
	return nil
}
