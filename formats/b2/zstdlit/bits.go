package zstdlit

import (
	"encoding/binary"
	"math/bits"
)

// bitReader reads a zstd backward bit stream: the last byte's highest set
// bit marks the start, and bits are taken from the most significant end
// going towards the first byte. bits holds the next bits left-aligned; n of
// them are valid (the bits below may be stream bits loaded early, never
// anything else). n goes negative once more bits were taken than the
// stream has: they read as zeros.
type bitReader struct {
	in   []byte
	off  int // bytes in[:off] are not loaded yet
	bits uint64
	n    int
}

func (r *bitReader) init(in []byte) bool {
	if len(in) == 0 || in[len(in)-1] == 0 {
		return false
	}
	last := in[len(in)-1]
	hb := bits.Len8(last) - 1 // the marker
	r.in, r.off = in, len(in)-1
	r.bits = uint64(last) << (64 - uint(hb)) // hb = 0: the shift clears it
	r.n = hb
	r.fill()
	return true
}

// fill loads whole bytes while they fit.
func (r *bitReader) fill() {
	if r.n < 0 {
		return
	}
	if r.off >= 8 {
		w := binary.LittleEndian.Uint64(r.in[r.off-8:])
		r.bits |= w >> uint(r.n)
		k := (64 - r.n) >> 3
		r.off -= k
		r.n += k << 3
		return
	}
	for r.n <= 56 && r.off > 0 {
		r.off--
		r.bits |= uint64(r.in[r.off]) << uint(56-r.n)
		r.n += 8
	}
}

// take returns the next nb bits (nb ≤ 32 after a fill that left n ≥ nb).
func (r *bitReader) take(nb uint) uint32 {
	if nb == 0 {
		return 0
	}
	if r.n < int(nb) {
		r.fill()
	}
	v := uint32(r.bits >> (64 - nb))
	r.bits <<= nb
	r.n -= int(nb)
	return v
}
