package executor

import (
	"fmt"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestAppendValid: the rows appendValid returns are exactly the live rows
// with their bit set, for lengths around word boundaries (bits past the
// batch's length set, as a reused bitmap may have them), with and without
// a selection.
func TestAppendValid(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 127, 128, 200, 2048} {
		valid := columnar.NewBitmap(n + 64) // the bits past n stay set
		for i := 0; i < n; i++ {
			if i%3 == 0 || i%7 == 5 {
				valid.Clear(i)
			}
		}
		var sel []int
		for i := 0; i < n; i += 2 {
			sel = append(sel, i)
		}
		for _, s := range [][]int{nil, sel} {
			t.Run(fmt.Sprintf("n=%d/sel=%v", n, s != nil), func(t *testing.T) {
				b := &columnar.Batch{Len: n, Sel: s}
				var want []int
				for i := 0; i < n; i++ {
					if (s == nil || i%2 == 0) && i%3 != 0 && i%7 != 5 {
						want = append(want, i)
					}
				}
				got := appendValid([]int{-1}, valid, b)
				if got[0] != -1 || !slices.Equal(got[1:], want) {
					t.Fatalf("got %v, want -1 then %v", got, want)
				}
			})
		}
	}
}
