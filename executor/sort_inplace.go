package executor

import (
	"context"
	"math/bits"
	"slices"
)

// quickSort sorts es in place by compare, with no buffer beside it (a
// merge sort's buffer is as big as what it sorts: 240 MB more at the peak
// of a 10M-row ORDER BY). Quicksort partitions the entries down to
// stretches of at most sortRun, each sorted by slices.SortFunc; the
// context is checked at every partition, so that a cancelled sort stops
// within the time of one pass over a stretch (a few milliseconds per
// million entries). Pivots are medians of three (of nine on large
// stretches); a stretch that is split badly too often (an adversarial
// order) is merge sorted instead, which bounds the work by n log n.
// compare must order all entries strictly or not, it needs no tie-break
// (the caller's entries carry their row for that).
func quickSort[T any](ctx context.Context, es []T, compare func(a, b T) int) error {
	return quickSortDepth(ctx, es, compare, 2*bits.Len(uint(len(es))))
}

func quickSortDepth[T any](ctx context.Context, es []T, compare func(a, b T) int, depth int) error {
	for len(es) > sortRun {
		if err := ctx.Err(); err != nil {
			return err
		}
		if depth == 0 {
			sorted, err := mergeSort(ctx, es, compare)
			if err == nil && &sorted[0] != &es[0] {
				copy(es, sorted)
			}
			return err
		}
		depth--
		p := partition(es, compare)
		left, right := es[:p], es[p+1:]
		// Recursing into the smaller side bounds the stack by log n.
		if len(left) > len(right) {
			left, right = right, left
		}
		if err := quickSortDepth(ctx, left, compare, depth); err != nil {
			return err
		}
		es = right
	}
	slices.SortFunc(es, compare)
	return nil
}

// partition moves a pivot of es to its sorted place p, with no entry after
// it before it in order and none before it after it, and returns p.
func partition[T any](es []T, compare func(a, b T) int) int {
	n := len(es)
	m := pivotIndex(es, compare)
	es[0], es[m] = es[m], es[0]
	pivot := es[0]
	i, j := 1, n-1
	for {
		for i <= j && compare(es[i], pivot) < 0 {
			i++
		}
		for i <= j && compare(es[j], pivot) > 0 {
			j--
		}
		if i >= j {
			break
		}
		es[i], es[j] = es[j], es[i]
		i++
		j--
	}
	es[0], es[j] = es[j], es[0]
	return j
}

// pivotIndex is the median of the first, middle and last entries, or on a
// large stretch Tukey's ninther (the median of three such medians), which
// keeps sorted, reversed and sawtooth inputs splitting near the middle.
func pivotIndex[T any](es []T, compare func(a, b T) int) int {
	n := len(es)
	a, b, c := 0, n/2, n-1
	if n >= 1<<10 {
		s := n / 8
		a = medianOf3(es, compare, a, a+s, a+2*s)
		b = medianOf3(es, compare, b-s, b, b+s)
		c = medianOf3(es, compare, c-2*s, c-s, c)
	}
	return medianOf3(es, compare, a, b, c)
}

// medianOf3 is the index, among a, b and c, of the median entry.
func medianOf3[T any](es []T, compare func(a, b T) int, a, b, c int) int {
	if compare(es[b], es[a]) < 0 {
		a, b = b, a
	}
	if compare(es[c], es[b]) < 0 {
		b = c
		if compare(es[b], es[a]) < 0 {
			b = a
		}
	}
	return b
}

// sortRun is how many entries are sorted at once before they are merged;
// the context is checked between runs and every sortRun merged entries, so
// a cancelled sort stops within a few milliseconds.
const sortRun = 1 << 14

// mergeSort sorts es by compare: runs of sortRun entries, then a
// bottom-up merge through one buffer, checking ctx between runs and every
// sortRun merged entries. It returns the sorted entries (es or the buffer).
func mergeSort[T any](ctx context.Context, es []T, compare func(a, b T) int) ([]T, error) {
	n := len(es)
	for lo := 0; lo < n; lo += sortRun {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		slices.SortFunc(es[lo:min(lo+sortRun, n)], compare)
	}
	if n <= sortRun {
		return es, nil
	}
	buf := make([]T, n)
	src, dst := es, buf
	for width := sortRun; width < n; width *= 2 {
		done := 0
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if compare(src[j], src[i]) < 0 {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
				if done++; done%sortRun == 0 && ctx.Err() != nil {
					return nil, ctx.Err()
				}
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	return src, nil
}
