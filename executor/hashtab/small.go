package hashtab

import "github.com/b2sql/b2sql/columnar"

// smallKeys is a direct table in front of a composite key table for
// groupings whose keys all have tiny domains, such as TPC-H Q01's
// (l_returnflag, l_linestatus): each row's key words pack into a 16-bit
// index (the NULL mask, then 7 bits per string id or integer, 1 per
// boolean) whose slot holds the group id, so a row costs one load instead
// of a hash, a probe and a key comparison. Groups are still created through
// the key table, so that when a word outgrows its bits (a 128th string,
// an integer past 127) the grouping drops the direct table and goes on
// with the key table alone, which already holds every group.
type smallKeys struct {
	slots  []int32 // group id + 1; 0 = not seen yet; made once a first key fits
	size   int
	shifts []uint // per key column: where its word goes in the index
	limits []uint64
}

// smallBits is the width of the packed index: 64K slots of 4 bytes.
const smallBits = 16

// newSmallKeys returns the direct table for keys of types, or nil when
// their packed widths do not fit smallBits.
func newSmallKeys(types []columnar.Type) *smallKeys {
	s := &smallKeys{shifts: make([]uint, len(types)), limits: make([]uint64, len(types))}
	bits := uint(len(types)) // the NULL mask
	for k, t := range types {
		w := uint(7)
		switch t.Phys() {
		case columnar.PhysBool:
			w = 1
		case columnar.PhysNone:
			w = 0
		case columnar.PhysFloat:
			return nil // a float's word is its bit pattern: never small
		}
		s.shifts[k], s.limits[k] = bits, 1<<w
		bits += w
	}
	if bits > smallBits {
		return nil
	}
	s.size = 1 << bits
	return s
}

// assign is compositeKeys.assign through the direct table over the filled
// words. It returns false, having assigned nothing for certain, when some
// word does not fit: the caller then assigns the batch through the key
// table (groups created here are found there).
func (s *smallKeys) assign(c *compositeKeys, b *columnar.Batch, gids []int32, newGroup func(i int) int32) bool {
	w := c.w
	if s.slots == nil {
		// Made once the first key fits: two BIGINT keys (order and part
		// numbers) fail at once and never pay for it.
		if b.Live() == 0 {
			return true
		}
		i := b.Row(0)
		for k, x := range c.words[i*w+1 : i*w+w] {
			if x >= s.limits[k] {
				return false
			}
		}
		s.slots = make([]int32, s.size)
	}
	var row int
	create := func() int32 { return newGroup(row) }
	ok := true
	one := func(i int) {
		key := c.words[i*w : i*w+w]
		idx := key[0]
		for k, x := range key[1:] {
			if x >= s.limits[k] {
				ok = false
				return
			}
			idx |= x << s.shifts[k]
		}
		g := s.slots[idx]
		if g == 0 {
			row = i
			g = c.tab.find(key, hashWords(key), create) + 1
			s.slots[idx] = g
		}
		gids[i] = g - 1
	}
	if b.Sel != nil {
		for _, i := range b.Sel {
			if one(i); !ok {
				return false
			}
		}
		return true
	}
	// The common case written out, with no call per row.
	slots, shifts, limits := s.slots, s.shifts, s.limits
	words := c.words[:b.Len*w]
	for i := 0; i < b.Len; i++ {
		key := words[i*w : i*w+w]
		idx := key[0]
		for k, x := range key[1:] {
			if x >= limits[k] {
				return false
			}
			idx |= x << shifts[k]
		}
		g := slots[idx]
		if g == 0 {
			row = i
			g = c.tab.find(key, hashWords(key), create) + 1
			slots[idx] = g
		}
		gids[i] = g - 1
	}
	return true
}
