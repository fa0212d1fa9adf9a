package hashtab

// Reserving room for a number of keys known ahead.
//
// A table that grows as keys come doubles about log2(n) times, rehashing
// every key each time and holding the old slots beside the new ones while
// it does. When the caller knows about how many keys are coming (a
// parallel GROUP BY's final knows an estimate of its partition's distinct
// keys), one table of the final size is cheaper: COUNT(DISTINCT title)
// over 10M mostly distinct titles spent a fifth of its time growing the
// finals' string tables. Only the string Map takes a reservation: its
// slots are 40 bytes a key and it doubles from 64.

// Reserve makes m ready for n keys in all, when m's kind takes a
// reservation; an estimate too low only means growing later.
func Reserve(m Map, n int) {
	if s, ok := m.(*strMap); ok {
		s.tab.reserve(n)
	}
}

// ReserveBytes is what Reserve(m, n) allocates, for memory accounting.
func ReserveBytes(m Map, n int) int64 {
	if s, ok := m.(*strMap); ok {
		return s.tab.reserveBytes(n)
	}
	return 0
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
// table's key list to n entries.
func (t *strTable) reserve(n int) {
	if s := strSlotsFor(n); s > len(t.slots) {
		t.resize(s)
	}
	if t.keep && cap(t.refs) < n {
		t.refs = append(make([]uint64, 0, n), t.refs...)
		t.lens = append(make([]uint32, 0, n), t.lens...)
	}
}

func (t *strTable) reserveBytes(n int) int64 {
	var b int64
	if s := strSlotsFor(n); s > len(t.slots) {
		b += 40 * int64(s)
	}
	if t.keep && cap(t.refs) < n {
		b += 12 * int64(n)
	}
	return b
}
