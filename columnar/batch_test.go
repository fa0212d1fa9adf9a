package columnar

import (
	"slices"
	"testing"
)

func TestBatchForEach(t *testing.T) {
	rows := func(b *Batch) []int {
		var got []int
		b.ForEach(func(i int) { got = append(got, i) })
		return got
	}
	// Without Sel every row of [0, Len) is live.
	if got := rows(&Batch{Len: 4}); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("no Sel: got %v, want [0 1 2 3]", got)
	}
	// With Sel only the listed rows, even past Len's prefix order.
	if got := rows(&Batch{Len: 9, Sel: []int{1, 4, 8}}); !slices.Equal(got, []int{1, 4, 8}) {
		t.Errorf("Sel: got %v, want [1 4 8]", got)
	}
	// An empty Sel (not nil) has no live row; an empty batch neither.
	if got := rows(&Batch{Len: 3, Sel: []int{}}); len(got) != 0 {
		t.Errorf("empty Sel: got %v, want none", got)
	}
	if got := rows(&Batch{}); len(got) != 0 {
		t.Errorf("Len 0: got %v, want none", got)
	}
}
