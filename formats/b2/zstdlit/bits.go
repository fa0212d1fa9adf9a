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

// fill loads whole bytes while they fit. The common case, 8 bytes left to
// load, is small enough to inline into the decoding loops; n is then never
// negative (bits are only overdrawn once every byte is loaded).
func (r *bitReader) fill() {
	if r.off >= 8 {
		r.bits |= binary.LittleEndian.Uint64(r.in[r.off-8:]) >> uint(r.n)
		r.off -= (63 - r.n) >> 3
		r.n |= 56 // n + 8·((63-n)/8) for 0 ≤ n < 64
		return
	}
	r.fillTail()
}

// fillTail loads the last bytes of the stream one at a time.
func (r *bitReader) fillTail() {
	if r.n < 0 {
		return
	}
	for r.n <= 56 && r.off > 0 {
		r.off--
		r.bits |= uint64(r.in[r.off]) << uint(56-r.n)
		r.n += 8
	}
}

// take returns the next nb bits (nb ≤ 32 after a fill that left n ≥ nb).
// nb = 0 gives 0: a uint64 shifted by 64 is 0.
func (r *bitReader) take(nb uint) uint32 {
	if r.n < int(nb) {
		r.fill()
	}
	v := uint32(r.bits >> (64 - nb))
	r.bits <<= nb
	r.n -= int(nb)
	return v
}
