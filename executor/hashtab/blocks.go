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
	firstBlockLen = 1 << 7
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

// bytes is the memory the blocks hold, of size bytes a value.
func (l *BlockList[T]) bytes(size int64) int64 {
	n := int64(0)
	for _, b := range l.Blocks {
		n += int64(cap(b))
	}
	return n * size
}

// growth is what adding n more values may allocate: the blocks they
// start, of size bytes a value.
func (l *BlockList[T]) growth(n int, size int64) int64 {
	free, next := 0, firstBlockLen
	if k := len(l.Blocks) - 1; k >= 0 {
		free, next = cap(l.Blocks[k])-len(l.Blocks[k]), min(2*cap(l.Blocks[k]), blockLen)
	}
	g := int64(0)
	for n > free {
		n -= free
		free = next
		g += int64(next) * size
		next = min(2*next, blockLen)
	}
	return g
}
