package executor

import (
	"bytes"
	"hash/maphash"
)

// strTable maps byte strings to group ids with open addressing. It beats a
// Go map[string]int32 on the hot path because the hash is computed once
// from the []byte (no string header), probes compare a stored hash before
// any bytes, and keys live in one arena instead of a heap object per key.
type strTable struct {
	seed  maphash.Seed
	slots []strSlot // len is a power of two
	n     int
	arena []byte
}

type strSlot struct {
	hash uint64
	off  uint32
	len  uint32
	gid  int32 // -1: empty
}

func newStrTable() *strTable {
	t := &strTable{seed: maphash.MakeSeed()}
	t.slots = make([]strSlot, 64)
	for i := range t.slots {
		t.slots[i].gid = -1
	}
	return t
}

// find returns the group of key, or calls create (which returns the new
// group id) and records it.
func (t *strTable) find(key []byte, create func() int32) int32 {
	h := maphash.Bytes(t.seed, key)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gid < 0 {
			g := create()
			off := len(t.arena)
			t.arena = append(t.arena, key...)
			*s = strSlot{hash: h, off: uint32(off), len: uint32(len(key)), gid: g}
			t.n++
			if 4*t.n >= 3*len(t.slots) {
				t.grow()
			}
			return g
		}
		if s.hash == h && int(s.len) == len(key) && bytes.Equal(t.arena[s.off:s.off+s.len], key) {
			return s.gid
		}
	}
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
