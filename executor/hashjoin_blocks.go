package executor

// blockList collects the values of a hash join's build (its keys, their
// rows) until the table is built from them: appended into fixed-size
// blocks, so that collecting never copies what is already stored, as a
// slice's growth does at every step (TPC-H Q9's 800K partsupp tuples spent
// 10% of the query's CPU in that copying), and laid out flat once at the
// end, when the count is known.
type blockList[T any] struct {
	blocks [][]T
	n      int
}

// Blocks hold from firstBlockLen values (a small build allocates little)
// doubling up to blockLen (512 KB of int64).
const (
	firstBlockLen = 1 << 10
	blockLen      = 1 << 16
)

func (l *blockList[T]) add(vals ...T) {
	for len(vals) > 0 {
		if len(l.blocks) == 0 {
			l.blocks = append(l.blocks, make([]T, 0, firstBlockLen))
		} else if last := l.blocks[len(l.blocks)-1]; len(last) == cap(last) {
			l.blocks = append(l.blocks, make([]T, 0, min(2*cap(last), blockLen)))
		}
		b := &l.blocks[len(l.blocks)-1]
		k := min(len(vals), cap(*b)-len(*b))
		*b = append(*b, vals[:k]...)
		vals = vals[k:]
		l.n += k
	}
}

// push appends one value: add without the loop, small enough to inline
// in a build's per-row loop.
func (l *blockList[T]) push(v T) {
	if k := len(l.blocks) - 1; k >= 0 && len(l.blocks[k]) < cap(l.blocks[k]) {
		l.blocks[k] = append(l.blocks[k], v)
		l.n++
		return
	}
	l.add(v)
}

// flat returns the values as one slice and empties the list.
func (l *blockList[T]) flat() []T {
	out := make([]T, 0, l.n)
	for _, b := range l.blocks {
		out = append(out, b...)
	}
	l.blocks, l.n = nil, 0
	return out
}
