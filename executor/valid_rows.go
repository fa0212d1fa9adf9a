package executor

import (
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
)

// appendValid appends the live rows of b whose bit in valid is set, in
// increasing order. Without a selection it walks the bitmap a word at a
// time, one step per set bit, where a test per row cost a call and a
// branch (a nullable SUM's rows: events' price, 10M rows a query).
func appendValid(dst []int, valid columnar.Bitmap, b *columnar.Batch) []int {
	if b.Sel != nil {
		for _, i := range b.Sel {
			if valid.Get(i) {
				dst = append(dst, i)
			}
		}
		return dst
	}
	for w := 0; w<<6 < b.Len; w++ {
		m := valid[w]
		if rem := b.Len - w<<6; rem < 64 {
			m &= 1<<uint(rem) - 1
		}
		for m != 0 {
			dst = append(dst, w<<6+bits.TrailingZeros64(m))
			m &= m - 1
		}
	}
	return dst
}
