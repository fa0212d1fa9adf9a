package arrowrec

import (
	"unsafe"

	"github.com/b2sql/b2sql/columnar"
)

// gather copies the live rows of vals, converted by f, into a new slice.
func gather[T, U any](vals []T, isConst bool, b *columnar.Batch, f func(T) U) []U {
	n := b.Live()
	out := make([]U, n)
	switch {
	case isConst:
		x := f(vals[0])
		for k := range out {
			out[k] = x
		}
	case b.Sel == nil:
		for k, x := range vals[:n] {
			out[k] = f(x)
		}
	default:
		for k, i := range b.Sel {
			out[k] = f(vals[i])
		}
	}
	return out
}

// bytesOf views a slice of fixed-width values as bytes (no copy); the
// result keeps the slice's memory alive.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return []byte{}
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(z)))
}
