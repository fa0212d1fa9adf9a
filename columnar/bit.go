package columnar

import (
	"errors"
	"fmt"
)

// A BIT value is held as DuckDB holds it: one byte counting the padding
// bits (0..7), then the bits, the first one the high bit of the first
// data byte, the padding bits at the start of that byte set to 1. DuckDB
// orders, groups and compares BIT values by these bytes ('1111111' comes
// after '11111111': it has more padding), so PhysBytes comparison,
// hashing and sorting need no case of their own.

// BitLen returns the number of bits of a BIT payload.
func BitLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	return (len(b)-1)*8 - int(b[0])
}

// NewBit returns a BIT payload of n ≥ 1 bits, all 0.
func NewBit(n int) []byte {
	nb := (n + 7) / 8
	b := make([]byte, 1+nb)
	pad := nb*8 - n
	b[0] = byte(pad)
	b[1] = ^byte(0xff >> pad)
	return b
}

// BitAt returns bit i (0 is the leftmost) of a BIT payload, 0 or 1.
func BitAt(b []byte, i int) int {
	p := i + int(b[0])
	return int(b[1+p/8]>>(7-p%8)) & 1
}

// SetBitAt sets bit i (0 is the leftmost) of a BIT payload to v (0 or 1).
func SetBitAt(b []byte, i, v int) {
	p := i + int(b[0])
	m := byte(1) << (7 - p%8)
	if v != 0 {
		b[1+p/8] |= m
	} else {
		b[1+p/8] &^= m
	}
}

// ErrBitEmpty is the error of an empty text or BLOB cast to BIT.
var ErrBitEmpty = errors.New("cannot cast empty string to BIT")

// ParseBit reads a BIT's text: one or more '0' and '1' characters and
// nothing else (no spaces), as DuckDB reads it.
func ParseBit(s string) ([]byte, error) {
	if s == "" {
		return nil, ErrBitEmpty
	}
	b := NewBit(len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '0':
		case '1':
			SetBitAt(b, i, 1)
		default:
			return nil, fmt.Errorf("invalid character encountered in string -> bit conversion: '%c'", s[i])
		}
	}
	return b, nil
}

// AppendBit appends a BIT's text, its bits as '0' and '1'.
func AppendBit(dst, b []byte) []byte {
	n := BitLen(b)
	for i := range n {
		dst = append(dst, byte('0'+BitAt(b, i)))
	}
	return dst
}

// BitFromBytes returns the BIT of data's 8·len(data) bits (a BLOB's, an
// integer's big-endian bytes), as DuckDB casts them; data is not empty.
func BitFromBytes(data []byte) []byte {
	b := make([]byte, 1+len(data))
	copy(b[1:], data)
	return b
}

// BitBytes returns the bytes of a BIT's bits right-aligned, the padding
// bits 0: what BIT::BLOB gives, and the big-endian value BIT casts to a
// number read.
func BitBytes(b []byte) []byte {
	out := append([]byte(nil), b[1:]...)
	if len(out) > 0 {
		out[0] &= 0xff >> b[0]
	}
	return out
}

// BitUint128 returns the bits of a BIT as an unsigned number, the last bit
// the lowest (hi the upper 64 bits), for a BIT of at most 128 bits.
func BitUint128(b []byte) (hi, lo uint64) {
	for _, c := range BitBytes(b) {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(c)
	}
	return hi, lo
}

// BitFromUint returns the BIT of the low width bits of v (width 8, 16,
// 32 or 64), big-endian as DuckDB casts a number to BIT.
func BitFromUint(v uint64, width int) []byte {
	n := width / 8
	data := make([]byte, n)
	for i := range n {
		data[n-1-i] = byte(v >> (8 * i))
	}
	return BitFromBytes(data)
}

// BitFromUint128 returns the BIT of 128 bits, hi the upper 64.
func BitFromUint128(hi, lo uint64) []byte {
	return append(BitFromUint(hi, 64), BitFromUint(lo, 64)[1:]...)
}
