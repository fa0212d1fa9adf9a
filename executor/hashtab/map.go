package hashtab

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// Map numbers distinct keys 0, 1, 2, … in the order they are first seen.
// A key is one row of the key vectors: keys[c] is key column c over the
// rows of a batch, of the c-th type the Map was made for (dictionary-coded
// and Const vectors included). A Map is not safe for concurrent use.
type Map interface {
	// Assign sets gids[i], for each live row i of b, to the id of row i's
	// key, giving each new key the next id. It returns the live rows that
	// created an id, in increasing order (the Map's slice, valid until the
	// next call).
	Assign(b *columnar.Batch, keys []*columnar.Vector, gids []int32) (newRows []int)
	// Find sets gids[i], for each live row i of b, to the id of row i's
	// key, or -1 when the Map has none; it creates nothing.
	Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32)
	// Finder returns a lookup of its own (its scratch apart from the
	// Map's), for when several goroutines look keys up in one Map that
	// nothing adds to any more (the copies of a parallel join). Call it
	// before sharing the Map: it may reorganize the Map once.
	Finder() Finder
	// Len returns the number of ids handed out.
	Len() int
	// Keys writes the keys of ids [from, to) into cols (one vector per key
	// column, reset to to-from rows): the values of the row that created
	// each id.
	Keys(cols []*columnar.Vector, from, to int)
	// Bytes returns the memory the Map holds, in bytes (tables, stored
	// keys, interned strings), for memory accounting.
	Bytes() int64
	// Growth returns the bytes an Assign of n more rows may allocate at
	// once beyond Bytes: the new slots of a hash table that doubles (the
	// old ones are held until the doubling ends), so that a caller that
	// reserves before it grows is refused before the allocation, not
	// after.
	Growth(n int) int64
}

// doublingBytes is the bytes of the slot arrays an open-addressing table
// of slots slots (slotBytes each) holding used keys allocates while up to
// more keys arrive, when it doubles at three quarters full.
func doublingBytes(slots, used, more int, slotBytes int64) int64 {
	var n int64
	for slots > 0 && 4*(used+more) >= 3*slots {
		slots *= 2
		n += int64(slots) * slotBytes
	}
	return n
}

// appendBytes is what appending more elements of size bytes to a slice
// of length n and capacity c may allocate (about a quarter more than it
// holds, for a large slice).
func appendBytes(n, c, more int, size int64) int64 {
	if n+more <= c {
		return 0
	}
	return int64(max(n+more, c+c/4)) * size
}

// Finder is Map.Find, reading the Map only.
type Finder interface {
	Find(b *columnar.Batch, keys []*columnar.Vector, gids []int32)
}

// New returns an empty Map for keys of the given column types, the
// implementation chosen by their shape (see the package doc).
func New(types []columnar.Type) Map {
	if cols := normColumns(types); cols != nil {
		return newNormKeys(types, cols)
	}
	return newMap(types)
}

// newMap is New for keys compared by their bytes as given.
func newMap(types []columnar.Type) Map {
	if len(types) == 1 {
		switch types[0].Phys() {
		case columnar.PhysInt, columnar.PhysUint, columnar.PhysBool:
			return newIntMap(types[0])
		case columnar.PhysBytes:
			return newStrMap(types[0])
		}
	}
	if len(types) >= maxWordKeys {
		return newEncodedMap(types)
	}
	return newCompositeKeys(types)
}

// maxWordKeys bounds the key columns of the word table: its NULL mask is
// one word.
const maxWordKeys = 64

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

// idx maps row i to its payload slot (row 0 of a Const vector).
func idx(v *columnar.Vector, i int) int {
	if v.Const {
		return 0
	}
	return i
}

// bytesAt returns row j's bytes, decoding a dictionary-coded vector.
func bytesAt(v *columnar.Vector, j int) []byte {
	if d, codes, ok := dict.Of(v); ok {
		return d.Value(codes[j])
	}
	return v.Bytes[j]
}

// growInt32 returns s with room for n values.
func growInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, max(n, columnar.MaxBatch))
	}
	return s[:n]
}

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

func (c *chunked[T]) bytes(size int) int64 {
	n := int64(0)
	for _, ch := range c.chunks {
		n += int64(cap(ch))
	}
	return n * int64(size)
}

// Kind names the implementation m uses now, for EXPLAIN and tests:
// "ints", "strings", "encoded", or "composite" with "+packed" or "+lead"
// while the packed keys or the lead key serve it.
func Kind(m Map) string {
	switch m := m.(type) {
	case *intMap:
		return "ints"
	case *strMap:
		return "strings"
	case *encodedMap:
		return "encoded"
	case *compositeKeys:
		switch {
		case m.enc != nil:
			return "encoded"
		case m.lead != nil:
			return "composite+lead"
		case m.packed != nil && m.packed.ig != nil:
			return "composite+packed"
		}
		return "composite"
	}
	return "unknown"
}

// pushFloats appends row i's value of each float column of keys to its
// list in floats (0 for NULL): a float key word folds -0 and NaNs, so the
// first value is kept apart for Keys.
func pushFloats(floats []chunked[float64], keys []*columnar.Vector, i int) {
	for k, v := range keys {
		if v.Type.Phys() == columnar.PhysFloat {
			j := idx(v, i)
			f := 0.0
			if !v.IsNull(j) {
				f = v.Floats[j]
			}
			floats[k].push(f)
		}
	}
}
