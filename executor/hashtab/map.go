package hashtab

import (
	"github.com/b2sql/b2sql/columnar"
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
