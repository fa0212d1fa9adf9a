package executor

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
)

// strTable maps byte strings to group ids with open addressing. It beats a
// Go map[string]int32 on the hot path: keys of up to 16 bytes (category
// codes, country names, flags…) are hashed from two machine words with a
// multiply-mix and compared as two words held in the slot itself, so a hit
// touches one cache line and no key bytes; longer keys are hashed with
// maphash and compared against a shared arena.
type strTable struct {
	seed  maphash.Seed
	mix   uint64 // per-table salt for the short-key hash
	slots []strSlot
	n     int
	arena []byte
}

type strSlot struct {
	hash   uint64
	w0, w1 uint64 // short keys: the bytes, zero-padded
	off    uint32 // long keys: position in the arena
	len    uint32
	gid    int32 // -1: empty
}

func newStrTable() *strTable {
	t := &strTable{seed: maphash.MakeSeed()}
	t.mix = maphash.Bytes(t.seed, []byte("b2sql")) | 1
	t.slots = make([]strSlot, 64)
	for i := range t.slots {
		t.slots[i].gid = -1
	}
	return t
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

// find returns the group of key, or calls create (which returns the new
// group id) and records it.
func (t *strTable) find(key []byte, create func() int32) int32 {
	mask := uint64(len(t.slots) - 1)
	if len(key) <= 16 {
		w0, w1 := words(key)
		h := t.shortHash(w0, w1, len(key))
		for i := h & mask; ; i = (i + 1) & mask {
			s := &t.slots[i]
			if s.gid < 0 {
				return t.insert(s, strSlot{hash: h, w0: w0, w1: w1, len: uint32(len(key))}, create)
			}
			if s.hash == h && s.w0 == w0 && s.w1 == w1 && int(s.len) == len(key) {
				return s.gid
			}
		}
	}
	h := maphash.Bytes(t.seed, key)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gid < 0 {
			off := len(t.arena)
			t.arena = append(t.arena, key...)
			return t.insert(s, strSlot{hash: h, off: uint32(off), len: uint32(len(key))}, create)
		}
		if s.hash == h && int(s.len) == len(key) && len(key) > 16 && bytes.Equal(t.arena[s.off:s.off+s.len], key) {
			return s.gid
		}
	}
}

func (t *strTable) insert(s *strSlot, v strSlot, create func() int32) int32 {
	v.gid = create()
	*s = v
	t.n++
	if 4*t.n >= 3*len(t.slots) {
		t.grow()
	}
	return v.gid
}

func (t *strTable) grow() {
	old := t.slots
	t.slots = make([]strSlot, 2*len(old))
	for i := range t.slots {
		t.slots[i].gid = -1
	}
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.gid < 0 {
			continue
		}
		i := s.hash & mask
		for t.slots[i].gid >= 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}
