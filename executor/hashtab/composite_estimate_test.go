package hashtab

import (
	"fmt"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// stringBatch is a batch of one VARCHAR column: row i holds val(i), or
// NULL where val returns "", with every third row left out by a selection
// when sel is set.
func stringBatch(n int, sel bool, val func(i int) string) *columnar.Batch {
	b := columnar.NewBatch([]columnar.Type{columnar.TVarchar}, n)
	b.Len = n
	for i := range n {
		if s := val(i); s == "" {
			b.Cols[0].SetNull(i, n)
		} else {
			b.Cols[0].Bytes[i] = []byte(s)
		}
	}
	if sel {
		for i := range n {
			if i%3 != 0 {
				b.Sel = append(b.Sel, i)
			}
		}
	}
	return b
}

// distinctEstimate is within 5% (or 2) of the distinct non-NULL values of
// the live rows, counted here with a Go map.
func TestDistinctEstimate(t *testing.T) {
	for _, d := range []int{1, 10, 300, 700, 1024} {
		for _, sel := range []bool{false, true} {
			b := stringBatch(1024, sel, func(i int) string {
				if i%11 == 5 {
					return "" // NULL
				}
				return fmt.Sprintf("value-%d-%s", i%d, strings.Repeat("x", i%d%7))
			})
			exact := map[string]bool{}
			b.ForEach(func(i int) {
				if b.Cols[0].Valid == nil || b.Cols[0].Valid.Get(i) {
					exact[string(b.Cols[0].Bytes[i])] = true
				}
			})
			got, want := distinctEstimate(b, b.Cols[0]), len(exact)
			if diff := got - want; diff > 2+want/20 || -diff > 2+want/20 {
				t.Errorf("%d distinct of 1024 (sel %v): estimated %d, want %d", d, sel, got, want)
			}
		}
	}
}

// longPlainStrings picks the encoded table for long, mostly distinct plain
// strings only.
func TestLongPlainStrings(t *testing.T) {
	long := strings.Repeat("a-long-prefix-", 3)
	cases := []struct {
		name string
		val  func(i int) string
		want bool
	}{
		{"long, distinct", func(i int) string { return fmt.Sprint(long, i) }, true},
		{"long, 10 values", func(i int) string { return fmt.Sprint(long, i%10) }, false},
		{"long, half repeated", func(i int) string { return fmt.Sprint(long, i/3) }, false},
		{"short, distinct", func(i int) string { return fmt.Sprint("k", i) }, false},
	}
	for _, c := range cases {
		b := stringBatch(1024, false, c.val)
		if got := longPlainStrings(b, b.Cols); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
