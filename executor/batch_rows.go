package executor

import "github.com/b2sql/b2sql/columnar"

// forEach calls fn for each live row of b.
func forEach(b *columnar.Batch, fn func(i int)) {
	if b.Sel == nil {
		for i := 0; i < b.Len; i++ {
			fn(i)
		}
		return
	}
	for _, i := range b.Sel {
		fn(i)
	}
}
