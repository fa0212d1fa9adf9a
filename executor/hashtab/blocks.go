package hashtab

// BlockList collects the values of a hash join's build (its keys, their
// rows) until the table is built from them: appended into fixed-size
// blocks, so that collecting never copies what is already stored, as a
// slice's growth does at every step (TPC-H Q9's 800K partsupp tuples spent
// 10% of the query's CPU in that copying), and laid out flat once at the
// end, when the count is known.
type BlockList[T any] struct {
	Blocks [][]T
	N      int
}

// Blocks hold from firstBlockLen values (a small build allocates little)
// doubling up to blockLen (512 KB of int64).
const (
	firstBlockLen = 1 << 10
	blockLen      = 1 << 16
)

// Add appends vals.
func (l *BlockList[T]) Add(vals ...T) {
	for len(vals) > 0 {
		if len(l.Blocks) == 0 {
			l.Blocks = append(l.Blocks, make([]T, 0, firstBlockLen))
		} else if last := l.Blocks[len(l.Blocks)-1]; len(last) == cap(last) {
			l.Blocks = append(l.Blocks, make([]T, 0, min(2*cap(last), blockLen)))
		}
		b := &l.Blocks[len(l.Blocks)-1]
		k := min(len(vals), cap(*b)-len(*b))
		*b = append(*b, vals[:k]...)
		vals = vals[k:]
		l.N += k
	}
}

// Push appends one value: Add without the loop, small enough to inline
// in a build's per-row loop.
func (l *BlockList[T]) Push(v T) {
	if k := len(l.Blocks) - 1; k >= 0 && len(l.Blocks[k]) < cap(l.Blocks[k]) {
		l.Blocks[k] = append(l.Blocks[k], v)
		l.N++
		return
	}
	l.Add(v)
}

// Flat returns the values as one slice and empties the list.
func (l *BlockList[T]) Flat() []T {
	out := make([]T, 0, l.N)
	for _, b := range l.Blocks {
		out = append(out, b...)
	}
	l.Blocks, l.N = nil, 0
	return out
}
