package executor

import "github.com/b2sql/b2sql/columnar"

// growIDs returns ids with room for n group ids.
func growIDs(ids []int32, n int) []int32 {
	if cap(ids) < n {
		return make([]int32, max(n, columnar.MaxBatch))
	}
	return ids[:n]
}

func growZero[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	if n <= cap(s) {
		var zero T
		old := len(s)
		s = s[:n]
		for i := old; i < n; i++ {
			s[i] = zero
		}
		return s
	}
	out := make([]T, n, max(n, 2*cap(s), 16))
	copy(out, s)
	return out
}

// sizeTo is growZero(s, n), or, when capOnly, s with capacity for at
// least n values and its length unchanged.
func sizeTo[T any](s []T, n int, capOnly bool) []T {
	if !capOnly {
		return growZero(s, n)
	}
	if cap(s) >= n {
		return s
	}
	out := make([]T, len(s), n)
	copy(out, s)
	return out
}
