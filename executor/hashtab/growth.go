package hashtab

import "github.com/b2sql/b2sql/columnar"

// doublingBytes is the bytes of the slot arrays an open-addressing table
// of slots slots (slotBytes each) holding used keys allocates while up to
// more keys arrive, when it doubles at three quarters full.
func doublingBytes(slots, used, more int, slotBytes int64) int64 {
	var n int64
	for slots > 0 && 4*(used+more) >= 3*slots {
		slots *= 2
		n += int64(slots) * slotBytes
	}
	return n
}

// appendBytes is what appending more elements of size bytes, one at a
// time, to a slice of length n and capacity c may allocate: append doubles
// a small slice's capacity and grows a large one by about a quarter
// (runtime.growslice), a new array each time.
func appendBytes(n, c, more int, size int64) int64 {
	var total int64
	for c < n+more {
		if c < 256 {
			c = max(2*c, 1)
		} else {
			c += (c + 3*256) / 4
		}
		total += int64(c) * size
	}
	return total
}

// growBatch returns s with room for n values (at least a batch's).
func growBatch[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, max(n, columnar.MaxBatch))
	}
	return s[:n]
}
