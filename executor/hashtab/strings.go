package hashtab

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"unsafe"
)

// strTable maps byte strings to group ids with open addressing, and keeps
// every key by insertion order (value), so that a caller numbering groups
// 0, 1, 2… as they are created needs no copy of its own: create must
// return the number of keys the table was given before (refs is indexed
// by id). A slot is 16 bytes: a key's length and either its bytes, for up
// to 8 (category codes, flags…: a hit touches one cache line and no key
// bytes), or its hash, which a longer key is compared by before its bytes.
// Keys of up to 16 bytes are hashed from two machine words with a
// multiply-mix, longer ones with maphash. DISTINCT over 10M mostly
// distinct titles waited on a memory miss per slot its probes crossed:
// 32-byte slots (the hash, two words of key, the length and the id) took
// twice the cache lines and page faults.
type strTable struct {
	seed  maphash.Seed
	mix   uint64 // per-table salt for the short-key hash
	slots []strSlot
	n     int
	arena textArena
	// refs, lens: each key's arena reference and length, by id
	refs []uint64
	lens []uint32
}

type strSlot struct {
	w  uint64 // keys of up to 8 bytes: the bytes, zero-padded; longer: the hash
	n  uint32 // the key's length
	id int32  // group id + 1; 0: empty, so that a new slice needs no setting
}

// strSlotBytes is the size of a slot.
const strSlotBytes = int64(unsafe.Sizeof(strSlot{}))

// inSlot is the longest key held in its slot.
const inSlot = 8

func newValueStrTable() *strTable {
	t := &strTable{seed: maphash.MakeSeed()}
	t.mix = maphash.Bytes(t.seed, []byte("b2sql")) | 1
	t.slots = make([]strSlot, 64)
	return t
}

// value returns the key of id i.
func (t *strTable) value(i int) []byte {
	return t.arena.get(t.refs[i], t.lens[i])
}

// words loads a key of at most 16 bytes as two little-endian words.
func words(key []byte) (w0, w1 uint64) {
	var buf [16]byte
	copy(buf[:], key)
	return binary.LittleEndian.Uint64(buf[:8]), binary.LittleEndian.Uint64(buf[8:])
}

func (t *strTable) shortHash(w0, w1 uint64, n int) uint64 {
	hi, lo := bits.Mul64(w0^t.mix, w1^0x9e3779b97f4a7c15^uint64(n))
	return hi ^ lo
}

// hash is key's hash in t: the two-word mix for keys of up to 16 bytes,
// maphash for longer ones.
func (t *strTable) hash(key []byte) uint64 {
	if len(key) <= 16 {
		w0, w1 := words(key)
		return t.shortHash(w0, w1, len(key))
	}
	return maphash.Bytes(t.seed, key)
}

// slotHash is the hash of the key in slot s.
func (t *strTable) slotHash(s *strSlot) uint64 {
	if s.n <= inSlot {
		return t.shortHash(s.w, 0, int(s.n))
	}
	return s.w
}

// probe returns the slot holding key, whose hash is h, or the empty slot
// where it goes, with the slot value a new entry for key would take (its
// id left for the caller).
func (t *strTable) probe(key []byte, h uint64) (*strSlot, strSlot) {
	mask := uint64(len(t.slots) - 1)
	n := uint32(len(key))
	if n <= inSlot {
		w, _ := words(key)
		for i := h & mask; ; i = (i + 1) & mask {
			s := &t.slots[i]
			if s.id == 0 || s.w == w && s.n == n {
				return s, strSlot{w: w, n: n}
			}
		}
	}
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.id == 0 || s.w == h && s.n == n && bytes.Equal(t.value(int(s.id-1)), key) {
			return s, strSlot{w: h, n: n}
		}
	}
}

// find returns the group of key, or calls create (which returns the new
// group id) and records it.
func (t *strTable) find(key []byte, create func() int32) int32 {
	return t.findHashed(key, t.hash(key), create)
}

// findHashed is find of a key whose hash h was computed already (hashAll).
func (t *strTable) findHashed(key []byte, h uint64, create func() int32) int32 {
	s, v := t.probe(key, h)
	if s.id != 0 {
		return s.id - 1
	}
	t.remember(t.arena.place(key), len(key))
	return t.insert(s, v, create)
}

// hashAll sets hs[i] to the hash of keys[i].
func (t *strTable) hashAll(hs []uint64, keys [][]byte) {
	for i, key := range keys {
		hs[i] = t.hash(key)
	}
}

// touch loads the slot each of hs starts at, when the slots outgrow the
// caches (touch.go). A DISTINCT over 10M mostly distinct titles spent 85%
// of its probe time on that one miss per row, in a 512 MB table.
func (t *strTable) touch(hs []uint64) {
	if len(t.slots)*int(strSlotBytes) < touchFrom {
		return
	}
	mask := uint64(len(t.slots) - 1)
	var sink int32
	for _, h := range hs {
		sink |= t.slots[h&mask].id
	}
	touchSink.Store(sink)
}

// lookup returns the group of key, or -1.
func (t *strTable) lookup(key []byte) int32 {
	s, _ := t.probe(key, t.hash(key))
	return s.id - 1
}

func (t *strTable) remember(ref uint64, n int) {
	t.refs = append(t.refs, ref)
	t.lens = append(t.lens, uint32(n))
}

func (t *strTable) insert(s *strSlot, v strSlot, create func() int32) int32 {
	g := create()
	if int(g) != len(t.refs)-1 {
		panic("hashtab: a string table's ids must number its keys in order")
	}
	v.id = g + 1
	*s = v
	t.n++
	if 4*t.n >= 3*len(t.slots) {
		t.grow()
	}
	return g
}

func (t *strTable) grow() { t.resize(2 * len(t.slots)) }

// resize moves the keys to a table of slots slots (a power of two).
func (t *strTable) resize(slots int) {
	old := t.slots
	t.slots = make([]strSlot, slots)
	mask := uint64(len(t.slots) - 1)
	// The new slots are loaded a run of old ones ahead (touch.go).
	for lo := 0; lo < len(old); lo += touchRun {
		part := old[lo:min(lo+touchRun, len(old))]
		if len(t.slots)*int(strSlotBytes) >= touchFrom {
			var sink int32
			for k := range part {
				sink |= t.slots[t.slotHash(&part[k])&mask].id
			}
			touchSink.Store(sink)
		}
		for _, s := range part {
			if s.id == 0 {
				continue
			}
			i := t.slotHash(&s) & mask
			for t.slots[i].id != 0 {
				i = (i + 1) & mask
			}
			t.slots[i] = s
		}
	}
}

// growth is Map.Growth of a table taking up to n more keys.
func (t *strTable) growth(n int) int64 {
	return doublingBytes(len(t.slots), t.n, n, strSlotBytes) + t.arena.growth() + appendBytes(len(t.refs), cap(t.refs), n, 12)
}

// bytes is the memory the table holds.
func (t *strTable) bytes() int64 {
	return strSlotBytes*int64(len(t.slots)) + t.arena.bytes() + 12*int64(cap(t.refs))
}
