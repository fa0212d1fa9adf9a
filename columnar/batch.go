package columnar

import "context"

// MaxBatch is the default number of rows in a batch.
const MaxBatch = 1024

// Batch is up to a few thousand rows of a fixed set of columns. Rows [0, Len)
// are present; if Sel is non-nil only the rows it lists (strictly increasing)
// are live. A Batch from Next belongs to its producer and is valid until the
// next call to Next; copy what you keep.
type Batch struct {
	Cols []*Vector
	Len  int
	Sel  []int
}

// NewBatch returns a batch with one vector per type, each with room for n rows.
func NewBatch(types []Type, n int) *Batch {
	b := &Batch{Cols: make([]*Vector, len(types))}
	for i, t := range types {
		b.Cols[i] = NewVector(t, n)
	}
	return b
}

// Live returns the number of live rows.
func (b *Batch) Live() int {
	if b.Sel != nil {
		return len(b.Sel)
	}
	return b.Len
}

// Row returns the i-th live row index.
func (b *Batch) Row(i int) int {
	if b.Sel != nil {
		return b.Sel[i]
	}
	return i
}

// ForEach calls fn with each live row index of b, in increasing order.
func (b *Batch) ForEach(fn func(i int)) {
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

// Reader streams batches. Next returns a batch with at least one live row,
// or (nil, io.EOF) at the end. Close releases resources and is safe to call
// more than once.
type Reader interface {
	Schema() Schema
	Next(ctx context.Context) (*Batch, error)
	Close() error
}
