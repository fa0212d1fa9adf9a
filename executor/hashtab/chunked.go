package hashtab

const (
	keyChunkBits = 14
	keyChunkMask = 1<<keyChunkBits - 1
)

// chunked is a list of a Map's per-id values (the keys of a single
// integer column), chunks of 1<<keyChunkBits never copied when growing;
// the first starts small and grows by append, so that a Map of a few keys
// holds a few words (keyChunkFor).
type chunked[T any] struct{ chunks [][]T }

func (c *chunked[T]) push(x T) {
	last := len(c.chunks) - 1
	if last < 0 || len(c.chunks[last]) == keyChunkMask+1 {
		size := keyChunkMask + 1
		if last < 0 {
			size = 64
		}
		c.chunks = append(c.chunks, make([]T, 0, size))
		last++
	}
	c.chunks[last] = append(roomFor(c.chunks[last], 1, keyChunkMask+1), x)
}

func (c *chunked[T]) at(g int) T { return c.chunks[g>>keyChunkBits][g&keyChunkMask] }

// copyOut copies values [from, to) into dst.
func (c *chunked[T]) copyOut(dst []T, from, to int) {
	for g := from; g < to; {
		chunk := c.chunks[g>>keyChunkBits][g&keyChunkMask:]
		g += copy(dst[g-from:to-from], chunk)
	}
}

// growth is what pushing n more values may allocate, of size bytes each.
func (c *chunked[T]) growth(n int, size int64) int64 {
	if len(c.chunks) == 0 {
		return chunkGrowth(0, 0, n, 1) * size
	}
	last := c.chunks[len(c.chunks)-1]
	return chunkGrowth(len(last), cap(last), n, 1) * size
}

func (c *chunked[T]) bytes(size int) int64 {
	n := int64(0)
	for _, ch := range c.chunks {
		n += int64(cap(ch))
	}
	return n * int64(size)
}

// roomFor returns chunk with room for k more values: the first chunk of
// a list grows by doubling up to full values, explicitly (append's own
// growth, by a quarter past 256 values, reallocated it a dozen times on
// its way to a whole chunk), so that Growth can say what it takes.
func roomFor[T any](chunk []T, k, full int) []T {
	if len(chunk)+k <= cap(chunk) {
		return chunk
	}
	grown := make([]T, len(chunk), min(max(2*cap(chunk), len(chunk)+k), max(full, len(chunk)+k)))
	copy(grown, chunk)
	return grown
}

// chunkGrowth is the words that chunks of keyChunkMask+1 keys of w words,
// the first one made for 64 and doubled (roomFor), allocate when n more
// keys go into a last chunk of l words with room for c.
func chunkGrowth(l, c, n, w int) int64 {
	full := (keyChunkMask + 1) * w
	n *= w
	g := int64(0)
	if c == 0 {
		c = 64 * w
		g = int64(c)
	}
	for c < full && l+n > c { // the first chunk doubling
		c = min(2*c, full)
		g += int64(c)
	}
	if l+n > c {
		g += int64((l+n-c+full-1)/full) * int64(full)
	}
	return g
}
