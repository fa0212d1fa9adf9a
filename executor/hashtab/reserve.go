package hashtab

import "github.com/b2sql/b2sql/columnar"

// Reserving room for the keys known to be coming.
//
// A table that grows as keys come doubles about log2(n) times, rehashing
// every key each time and holding the old slots beside the new ones while
// it does. When the caller knows about how many keys are coming (a
// parallel GROUP BY's final knows an estimate of its partition's distinct
// keys), one table of the final size is cheaper: COUNT(DISTINCT title)
// over 10M mostly distinct titles spent a fifth of its time growing the
// finals' string tables. The string Map takes such a reservation (its
// slots are 16 bytes a key and it doubles from 64), and so does the
// integer Map when it also knows the range its keys lie in (see Expect).

// Expect is what a caller knows ahead about the keys a Map will be given.
type Expect struct {
	// Keys is about how many distinct keys will come; an estimate too low
	// only means growing later.
	Keys int
	// Ranged says that keys [Lo, Hi] hold most of the keys of a single
	// integer column (a parallel GROUP BY's final is dealt a whole range
	// of keys: dealRange in the executor). The direct table then starts
	// at Lo instead of 0, and covers the range at once when the keys are
	// dense enough in it. Keys outside the range are still found, through
	// the hash table: the range only places the table.
	Ranged bool
	Lo, Hi int64
	// Lent are buffers that hold the coming keys' bytes (some of them, or
	// all) and will not change while the Map lives: a string Map keeps a
	// new key that lies in one where it lies instead of copying it
	// (textArena.lend).
	Lent [][]byte
	// Spare, when not nil, may hold the arrays of a table that is done, of
	// the size this one needs (Spare).
	Spare *Spare
	// Hashed says that the keys of a single integer column mostly fall
	// past the direct table (a DISTINCT aggregate's (group, value) pairs
	// packed with the group id above the value): the hash table is made
	// for Keys at once.
	Hashed bool
}

// Reserve makes m ready for the keys e describes, when m's kind takes a
// reservation. m must not have been given keys yet for the range to apply.
func Reserve(m Map, e Expect) {
	switch m := m.(type) {
	case *strMap:
		m.tab.reserve(e.Keys, e.Spare)
		m.tab.arena.lend(e.Lent)
	case *intMap:
		if m.n == 0 && e.Ranged && e.Hi >= e.Lo {
			m.expectRange(e.Lo, e.Hi, e.Keys)
		}
		if m.n == 0 && e.Hashed {
			m.ig.ints.reserve(e.Keys)
		}
	}
}

// reserve grows t to hold n keys below the load at which it doubles.
func (t *intKeyTable) reserve(n int) {
	s := len(t.slots)
	for n*4 >= s*t.load {
		s *= 2
	}
	if s > len(t.slots) {
		t.resize(s)
	}
}

// ReserveBytes is what Reserve(m, e) allocates, for memory accounting.
func ReserveBytes(m Map, e Expect) int64 {
	switch m := m.(type) {
	case *strMap:
		return m.tab.reserveBytes(e.Keys)
	case *intMap:
		if m.n == 0 && e.Hashed {
			s := len(m.ig.ints.slots)
			for e.Keys*4 >= s*m.ig.ints.load {
				s *= 2
			}
			return 16 * int64(s-len(m.ig.ints.slots))
		}
		if m.n == 0 && e.Ranged && e.Hi >= e.Lo && m.typ.Phys() == columnar.PhysInt {
			if span, ok := coverSpan(e.Lo, e.Hi, e.Keys); ok && span > m.ig.dense.n {
				return 4 * int64(span)
			}
		}
	}
	return 0
}

// coverSpan is the direct-table slots that keys [lo, hi] take, and
// whether the table should cover them at once: when they are at most as
// sparse as the direct table may be (16 slots a key, the rule of
// intGroups.find) and within denseKeys.
func coverSpan(lo, hi int64, keys int) (int, bool) {
	span := uint64(hi-lo) + 1
	if span == 0 || span > denseKeys || span > 16*uint64(max(keys, 1)) {
		return 0, false
	}
	return int(span), true
}

// expectRange makes lo the map's base: its integer keys go to the tables
// less lo, so that [lo, hi] is the direct table's [0, hi-lo], covered at
// once when keys (an estimate of the distinct keys coming) fill it densely
// enough.
func (m *intMap) expectRange(lo, hi int64, keys int) {
	if m.typ.Phys() != columnar.PhysInt || uint64(hi-lo) >= denseKeys {
		return // a range wider than any direct table: keep base 0
	}
	m.base = lo
	if span, ok := coverSpan(lo, hi, keys); ok && span > m.ig.dense.n {
		m.ig.dense.cover(span - 1)
	}
}

// strSlotsFor is the table size that holds n keys below the 3/4 load at
// which a table doubles.
func strSlotsFor(n int) int {
	s := 64
	for 4*n >= 3*s {
		s *= 2
	}
	return s
}

// reserve grows t's slots to hold n keys without doubling, and a value
// table's key list to n entries; an empty t takes spare's arrays when they
// are of its size.
func (t *strTable) reserve(n int, spare *Spare) {
	if s := strSlotsFor(n); s > len(t.slots) {
		if sp, ok := t.takeSpare(spare, s); ok {
			t.slots = sp.slots
			if cap(sp.refs) >= n && cap(sp.lens) >= n {
				t.refs, t.lens = sp.refs, sp.lens
			}
		} else {
			t.resize(s)
		}
	}
	if cap(t.refs) < n {
		t.refs = append(make([]uint64, 0, n), t.refs...)
		t.lens = append(make([]uint32, 0, n), t.lens...)
	}
}

// takeSpare takes spare's arrays of slots slots for t, if t is empty.
func (t *strTable) takeSpare(spare *Spare, slots int) (spareTable, bool) {
	if t.n > 0 || len(t.refs) > 0 {
		return spareTable{}, false
	}
	return spare.take(slots)
}

func (t *strTable) reserveBytes(n int) int64 {
	var b int64
	if s := strSlotsFor(n); s > len(t.slots) {
		b += strSlotBytes * int64(s)
	}
	if cap(t.refs) < n {
		b += 12 * int64(n)
	}
	return b
}

// KeySample returns up to k keys of m, a single integer column's Map,
// taken at even steps over its ids (the NULL key left out): a sample of
// its distinct keys, whatever order they came in. Other Maps give nil.
func KeySample(m Map, k int) []int64 {
	im, ok := m.(*intMap)
	if !ok || im.typ.Phys() != columnar.PhysInt || k <= 0 || im.n == 0 {
		return nil
	}
	step := max(im.n/k, 1)
	out := make([]int64, 0, min(k, im.n))
	for g := 0; g < im.n && len(out) < k; g += step {
		if int32(g) != im.nullG {
			out = append(out, im.keys.at(g)+im.base)
		}
	}
	return out
}
