package parquet

import (
	"fmt"
	"slices"
	"testing"
)

// TestCopyRows compares copyRows with the definition dst[k] =
// src[rows[k]-shift] on selections that are one run, runs broken every few
// rows (groups of 8 that are and are not consecutive), a run with one hole
// in the last group, and scattered rows, of lengths around the group size.
func TestCopyRows(t *testing.T) {
	src := make([]int64, 200)
	for i := range src {
		src[i] = int64(i)*7 + 3
	}
	sels := map[string]func(n int) []int{
		"run": func(n int) []int {
			r := make([]int, n)
			for i := range r {
				r[i] = 20 + i
			}
			return r
		},
		"hole every 5": func(n int) []int {
			var r []int
			for i := 20; len(r) < n; i++ {
				if i%5 != 0 {
					r = append(r, i)
				}
			}
			return r
		},
		"hole at the end": func(n int) []int {
			r := make([]int, n)
			for i := range r {
				r[i] = 20 + i
			}
			if n > 1 {
				r[n-1]++
			}
			return r
		},
		"scattered": func(n int) []int {
			r := make([]int, n)
			for i := range r {
				r[i] = 20 + 3*i + i%2
			}
			return r
		},
	}
	for name, sel := range sels {
		for _, n := range []int{0, 1, 7, 8, 9, 16, 17, 40} {
			rows := sel(n)
			for _, shift := range []int{0, 20} {
				want := make([]int64, n)
				for k, r := range rows {
					want[k] = src[r-shift]
				}
				got := make([]int64, n+1)
				got[n] = -1
				copyRows(got, src, rows, shift)
				if !slices.Equal(got[:n], want) || got[n] != -1 {
					t.Fatalf("%s n=%d shift=%d: got %v, want %v", name, n, shift, got, want)
				}
			}
		}
	}
	// Strings (a pointer-holding element) through the same path.
	words := make([][]byte, 40)
	for i := range words {
		words[i] = []byte(fmt.Sprint(i))
	}
	got := make([][]byte, 16)
	copyRows(got, words, []int{1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17}, 0)
	for k, w := range got {
		want := k + 1
		if k >= 8 {
			want = k + 2
		}
		if string(w) != fmt.Sprint(want) {
			t.Fatalf("row %d = %q, want %d", k, w, want)
		}
	}
}
