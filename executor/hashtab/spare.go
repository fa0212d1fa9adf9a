package hashtab

import "sync"

// Spare passes the large arrays of string tables that are done to the
// tables made after them. A parallel GROUP BY's finals run a few at a time,
// each with a table sized for its partition (Reserve): a fresh slot array
// is faulted in by the kernel a page at a time, twice a page when its
// first touch is a read (touch.go), and DISTINCT over 10M mostly distinct
// titles faulted 16 tables of 32 MB in so. A final that is done gives its
// arrays back (Release); the next final's Reserve takes them, cleared.
// A Spare keeps at most spareTables tables' arrays: what it holds is no
// one's reservation, so its owner drops it once its tables are made.
type Spare struct {
	mu     sync.Mutex
	tables []spareTable
}

// spareTable is the arrays of one released strTable.
type spareTable struct {
	slots []strSlot
	refs  []uint64
	lens  []uint32
}

const spareTables = 2

// Release gives m's large arrays to s; m must not be used afterwards. A
// nil s or m, or a Map that is not a string Map, is left alone.
func Release(m Map, s *Spare) {
	sm, ok := m.(*strMap)
	if !ok || s == nil || len(sm.tab.slots)*int(strSlotBytes) < touchFrom {
		return
	}
	t := sm.tab
	s.mu.Lock()
	if len(s.tables) < spareTables {
		s.tables = append(s.tables, spareTable{slots: t.slots, refs: t.refs[:0], lens: t.lens[:0]})
	}
	s.mu.Unlock()
	t.slots, t.refs, t.lens = nil, nil, nil
}

// take returns released arrays of exactly slots slots, cleared, and
// whatever key lists came with them; ok is false when s has none.
func (s *Spare) take(slots int) (spareTable, bool) {
	if s == nil {
		return spareTable{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, t := range s.tables {
		if len(t.slots) == slots {
			s.tables = append(s.tables[:i], s.tables[i+1:]...)
			clear(t.slots)
			return t, true
		}
	}
	return spareTable{}, false
}
