package hashtab

import "math/bits"

// keyTable maps fixed-width composite keys, w uint64 words each, to
// ids (compositeKeys' table). GROUP BY on several columns whose values all fit a word (integers,
// dates, decimals, floats, interned strings) hashes the words with a
// multiply-mix and compares them in place: no per-row key encoding, no
// string conversion, no Go map (whose string hashing and probing were half
// of TPC-H Q20's time).
//
// The open-addressing part holds one word per slot: the hash's high 32
// bits (which also pick the slot) and group id + 1 (0 = empty). Keys live
// apart, densely in group order, so growing rehashes only the slot words
// (no key is read, no hash recomputed) and the key of a hit is where the
// group's neighbours in arrival order are.
type keyTable struct {
	w     int
	slots []uint64
	mask  uint32
	// keys holds group g's key at keys[g>>keyChunkBits][(g&keyChunkMask)*w:]
	// in fixed-size chunks, so that growing never copies keys.
	keys [][]uint64
	n    int
}

// key returns the key of group g.
func (t *keyTable) key(g int32) []uint64 {
	o := int(g&keyChunkMask) * t.w
	return t.keys[g>>keyChunkBits][o : o+t.w]
}

func newKeyTable(w int) *keyTable {
	return &keyTable{w: w, slots: make([]uint64, 256), mask: 255}
}

// hashWords mixes the words of one key into a 64-bit hash.
func hashWords(key []uint64) uint64 {
	h := uint64(0x243f6a8885a308d3)
	for _, x := range key {
		hi, lo := bits.Mul64(h^x, 0x9e3779b97f4a7c15)
		h = hi ^ lo
	}
	return h
}

// find returns the group of key (hash h = hashWords(key)), or calls create
// and records key under the id it returns. Ids must be handed out densely
// from 0, in creation order (group ids are).
func (t *keyTable) find(key []uint64, h uint64, create func() int32) int32 {
	w := t.w
	tag := uint32(h >> 32)
	for s := tag & t.mask; ; s = (s + 1) & t.mask {
		e := t.slots[s]
		if e == 0 {
			g := create()
			t.slots[s] = uint64(tag)<<32 | uint64(uint32(g+1))
			t.keys = keyChunkFor(t.keys, g, w)
			last := len(t.keys) - 1
			t.keys[last] = append(roomFor(t.keys[last], w, (keyChunkMask+1)*w), key...)
			t.n++
			if 4*t.n >= 3*len(t.slots) {
				t.grow()
			}
			return g
		}
		if uint32(e>>32) == tag {
			g := int32(uint32(e)) - 1
			if equalWords(t.key(g), key) {
				return g
			}
		}
	}
}

func equalWords(a, b []uint64) bool {
	b = b[:len(a)]
	for i, x := range a {
		if x != b[i] {
			return false
		}
	}
	return true
}

func (t *keyTable) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	t.mask = uint32(len(t.slots) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		s := uint32(e>>32) & t.mask
		for t.slots[s] != 0 {
			s = (s + 1) & t.mask
		}
		t.slots[s] = e
	}
}

// lookup returns the group of key (hash h), or -1.
func (t *keyTable) lookup(key []uint64, h uint64) int32 {
	tag := uint32(h >> 32)
	for s := tag & t.mask; ; s = (s + 1) & t.mask {
		e := t.slots[s]
		if e == 0 {
			return -1
		}
		if uint32(e>>32) == tag {
			g := int32(uint32(e)) - 1
			if equalWords(t.key(g), key) {
				return g
			}
		}
	}
}

// keyChunkFor returns keys with room in its last chunk for group g's key
// of w words. The first chunk starts small and doubles (roomFor: a table
// of a few keys, such as a spilled partition's, holds a few words); the
// others are whole chunks, never copied.
func keyChunkFor(keys [][]uint64, g int32, w int) [][]uint64 {
	if int(g)>>keyChunkBits < len(keys) {
		return keys
	}
	size := (keyChunkMask + 1) * w
	if len(keys) == 0 {
		size = 64 * w
	}
	return append(keys, make([]uint64, 0, size))
}

// keyChunkBytes is the memory the key chunks hold.
func keyChunkBytes(keys [][]uint64) int64 {
	n := int64(0)
	for _, c := range keys {
		n += 8 * int64(cap(c))
	}
	return n
}

// bytes is the memory the table holds.
// growth is Map.Growth of a table taking up to n more keys (their words
// go to chunks that are never copied).
func (t *keyTable) growth(n int) int64 {
	g := doublingBytes(len(t.slots), t.n, n, 8)
	if len(t.keys) == 0 {
		return g + 8*chunkGrowth(0, 0, n, t.w)
	}
	last := t.keys[len(t.keys)-1]
	return g + 8*chunkGrowth(len(last), cap(last), n, t.w)
}

func (t *keyTable) bytes() int64 {
	return 8*int64(len(t.slots)) + keyChunkBytes(t.keys)
}
