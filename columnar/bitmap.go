package columnar

import "math/bits"

// Bitmap is a validity bitmap: bit i set means row i is present (not NULL).
// A nil Bitmap means every row is present.
type Bitmap []uint64

// NewBitmap returns a bitmap for n rows with every bit set.
func NewBitmap(n int) Bitmap {
	b := make(Bitmap, (n+63)/64)
	for i := range b {
		b[i] = ^uint64(0)
	}
	return b
}

// Get reports whether bit i is set; a nil bitmap reports true.
func (b Bitmap) Get(i int) bool {
	if b == nil {
		return true
	}
	return b[i>>6]&(1<<(uint(i)&63)) != 0
}

// Set sets bit i.
func (b Bitmap) Set(i int) { b[i>>6] |= 1 << (uint(i) & 63) }

// Clear clears bit i.
func (b Bitmap) Clear(i int) { b[i>>6] &^= 1 << (uint(i) & 63) }

// SetTo sets bit i to v.
func (b Bitmap) SetTo(i int, v bool) {
	if v {
		b.Set(i)
	} else {
		b.Clear(i)
	}
}

// CountSet returns the number of set bits among the first n.
func (b Bitmap) CountSet(n int) int {
	if b == nil {
		return n
	}
	c := 0
	full := n >> 6
	for _, w := range b[:full] {
		c += bits.OnesCount64(w)
	}
	if rem := n & 63; rem != 0 {
		c += bits.OnesCount64(b[full] & (1<<uint(rem) - 1))
	}
	return c
}

// Resize returns b resized for n rows with every bit set, reusing storage.
func (b Bitmap) Resize(n int) Bitmap {
	w := (n + 63) / 64
	if cap(b) < w {
		b = make(Bitmap, w)
	}
	b = b[:w]
	for i := range b {
		b[i] = ^uint64(0)
	}
	return b
}
