package hashtab

import (
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
)

// intKeyTable is the one open-addressing table of int64 keys: a 16-byte
// slot per key (the key and two int32 words), keys placed by Fibonacci
// hashing so that runs of consecutive keys (order keys, dates) spread over
// the table, and found by probing linearly. Two users give the words their
// meaning:
//
//   - a single integer GROUP BY key too large or too sparse for the direct
//     table (intGroups): val is the group id + 1;
//   - a join on one integer key (intTable): val is the number of build rows
//     with the key, aux the key's group while finishing, then the first
//     position of its rows.
//
// val is never 0 in a used slot: 0 marks an empty one.
type intKeyTable struct {
	slots []intKeySlot
	shift uint // 64 - log2(len(slots))
	n     int  // used slots
	limit int  // grow when n reaches it (load numerator/4 of the slots)
	load  int  // quarters of the slots used before doubling
}

type intKeySlot struct {
	key int64
	val int32 // 0 = empty
	aux int32
}

// newIntKeyTable returns an empty table of slots slots (a power of two)
// that doubles once load quarters of them are used: three quarters for a
// table that grows as keys come (GROUP BY), a half for a join's, whose
// probes mostly miss and stop at the first empty slot.
func newIntKeyTable(slots, load int) *intKeyTable {
	t := &intKeyTable{load: load}
	t.resize(slots)
	return t
}

func (t *intKeyTable) resize(slots int) {
	old := t.slots
	t.slots = make([]intKeySlot, slots)
	t.shift = uint(64 - bits.Len(uint(slots-1)))
	t.limit = slots * t.load / 4
	mask := uint64(slots - 1)
	for _, e := range old {
		if e.val == 0 {
			continue
		}
		s := t.home(e.key)
		for t.slots[s].val != 0 {
			s = (s + 1) & mask
		}
		t.slots[s] = e
	}
}

func (t *intKeyTable) home(v int64) uint64 { return (uint64(v) * 0x9e3779b97f4a7c15) >> t.shift }

// slot returns the slot holding v, or the empty slot where v belongs.
// After filling an empty slot, call added.
func (t *intKeyTable) slot(v int64) *intKeySlot {
	mask := uint64(len(t.slots) - 1)
	s := t.home(v)
	for {
		e := &t.slots[s]
		if e.val == 0 || e.key == v {
			return e
		}
		s = (s + 1) & mask
	}
}

// added counts a slot just filled and doubles the table when it is full
// enough (slot pointers taken before are then stale).
func (t *intKeyTable) added() {
	t.n++
	if t.n >= t.limit {
		t.resize(2 * len(t.slots))
	}
}

// find returns the group of v, or calls create and records the id it
// returns.
func (t *intKeyTable) find(v int64, create func() int32) int32 {
	e := t.slot(v)
	if e.val != 0 {
		return e.val - 1
	}
	g := create()
	e.key, e.val = v, g+1
	t.added()
	return g
}

// lookup returns the group of v, if it has one.
func (t *intKeyTable) lookup(v int64) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	e := t.slot(v)
	return e.val - 1, e.val != 0
}

func (t *intKeyTable) bytes() int64 { return 16 * int64(len(t.slots)) }

// growth is Map.Growth of a table taking up to n more keys (the direct
// table grows by pages of its own).
func (t *intKeyTable) growth(n int) int64 { return doublingBytes(len(t.slots), t.n, n, 16) }

// denseTable is the direct table of a single integer GROUP BY key: slot v
// holds the group id + 1 of key v (0 = none yet). Up to 64Ki keys it is
// one slice grown by doubling; past that it grows by whole pages of 64Ki
// slots, so that covering key ranges of millions (TPC-H Q18's order keys)
// neither copies what is there nor allocates and clears up to twice the
// range, which was a quarter of Q18's CPU time.
type denseTable struct {
	pages [][]int32
	n     int // keys covered: [0, n)
}

const (
	densePageBits = 16
	densePage     = 1 << densePageBits
)

// at returns the slot of key v; v must be in [0, n).
func (d *denseTable) at(v int64) *int32 {
	return &d.pages[v>>densePageBits][v&(densePage-1)]
}

// cover grows the table to cover at least keys [0, v] (v < denseKeys),
// never past denseKeys.
func (d *denseTable) cover(v int) {
	if v < densePage {
		var first []int32
		if len(d.pages) > 0 {
			first = d.pages[0]
		}
		grown := make([]int32, min(max(v+1, 2*len(first), 256), densePage))
		copy(grown, first)
		d.pages = [][]int32{grown}
		d.n = len(grown)
		return
	}
	if len(d.pages) == 1 && len(d.pages[0]) < densePage {
		grown := make([]int32, densePage)
		copy(grown, d.pages[0])
		d.pages[0] = grown
	}
	// A quarter more pages at least: fewer, larger steps.
	want := max(v>>densePageBits+1, len(d.pages)+len(d.pages)/4)
	want = min(want, max(v>>densePageBits+1, denseKeys>>densePageBits))
	for len(d.pages) < want {
		d.pages = append(d.pages, make([]int32, densePage))
	}
	d.n = len(d.pages) << densePageBits
}

// denseKeys bounds the integer keys looked up by direct indexing: small
// non-negative codes (regions, flags, years) skip the hash map entirely.
const denseKeys = 1 << 23

// denseFloor is the keys the direct table covers whatever the number of
// groups (16 KiB): small codes, years, flags. It was 64Ki keys (256 KiB),
// which a table of a few groups with keys in the thousands (a spilled
// partition's, packed keys) allocated at once: at a memory limit of 1 MB
// a recursive CTE's settling tables spilled five times as much.
const denseFloor = 1 << 12

// intGroups finds the group of an integer key: the direct table for small
// non-negative keys while it stays dense enough, the hash table for the
// rest. A single integer key (intMap) and a lead key (lead.go) use
// it; ids, dates and codes that run from 0 are then indexed, not hashed,
// so keys arriving in order touch the table in order.
type intGroups struct {
	dense denseTable
	ints  *intKeyTable
	// hashed marks, a bit per 1<<hashedShift keys, the keys below
	// denseKeys that the hash table holds (taken while out of the direct
	// table's range), so that a miss in the direct table probes the hash
	// table only for them (or a neighbour). It covers the keys up to the
	// largest marked, grown by doubling, at most 64 KiB: a bit per key
	// made for all of denseKeys at once was 1 MiB for one key, which at a
	// memory limit of a few MB put a spilled partition's first batch over
	// it, and packed keys of a few thousand groups spread over millions.
	hashed columnar.Bitmap
}

func newIntGroups() *intGroups { return &intGroups{ints: newIntKeyTable(256, 3)} }

// known returns the group of v when the direct table holds it: callers
// test it inline before find.
func (t *intGroups) known(v int64) (int32, bool) {
	if uint64(v) < uint64(t.dense.n) {
		if g := *t.dense.at(v); g != 0 {
			return g - 1, true
		}
	}
	return 0, false
}

// find returns the group of v, or calls create (which returns the new
// group's id) and records it; ngroups is the number of groups so far.
func (t *intGroups) find(v int64, ngroups int, create func() int32) int32 {
	// The direct table grows only while it stays dense enough (at most
	// 16 slots per group, past a floor of denseFloor keys), so one huge
	// key cannot make it large; keys outside it live in the map.
	if uint64(v) < denseKeys && (int(v) < t.dense.n || int(v) < max(denseFloor, 16*ngroups)) {
		if int(v) >= t.dense.n {
			t.dense.cover(int(v))
		}
		slot := t.dense.at(v)
		if *slot == 0 {
			// The hash table may have taken v while it was out of the
			// direct table's range: its group is copied in on the first
			// miss here, so both homes agree (walking the hash table at
			// every growth cost more than this probe per new key).
			if g, ok := t.hashedGroup(v); ok {
				*slot = g + 1
			} else {
				*slot = create() + 1
			}
		}
		return *slot - 1
	}
	return t.ints.find(v, func() int32 {
		if uint64(v) < denseKeys {
			b := int(v >> hashedShift)
			if w := b >> 6; w >= len(t.hashed) {
				grown := make(columnar.Bitmap, min(max(w+1, 2*len(t.hashed), 16), denseKeys>>hashedShift>>6))
				copy(grown, t.hashed)
				t.hashed = grown
			}
			t.hashed.Set(b)
		}
		return create()
	})
}

// lookup returns the group of v, if it has one.
func (t *intGroups) lookup(v int64) (int32, bool) {
	if g, ok := t.known(v); ok {
		return g, true
	}
	if uint64(v) < uint64(t.dense.n) {
		return t.hashedGroup(v)
	}
	return t.ints.lookup(v)
}

// hashedShift: hashed has a bit per 16 keys.
const hashedShift = 4

// hashedGroup returns the group of v, a key below the direct table's end,
// when the hash table holds it.
func (t *intGroups) hashedGroup(v int64) (int32, bool) {
	b := int(v >> hashedShift)
	if b>>6 >= len(t.hashed) || !t.hashed.Get(b) {
		return 0, false
	}
	return t.ints.lookup(v)
}

// growth is Map.Growth of the tables taking up to n more keys, ngroups
// groups held: the hash table's doubling, and the direct table's pages
// when it may cover up to 16 slots per group.
func (t *intGroups) growth(n, ngroups int) int64 {
	g := t.ints.growth(n)
	if want := min(max(denseFloor, 16*(ngroups+n)), denseKeys); want > t.dense.n {
		if want <= densePage { // the first page, doubling (cover)
			return g + 4*int64(min(max(want, 2*t.dense.n, 256), densePage))
		}
		pages := len(t.dense.pages)
		need := max((want+densePage-1)>>densePageBits, pages+pages/4)
		g += int64(need-pages) * densePage * 4
	}
	return g
}

// bytes is the memory the tables hold.
func (t *intGroups) bytes() int64 {
	return 4*int64(len(t.dense.pages))*int64(len(t.dense.firstPage())) + t.ints.bytes() + 8*int64(len(t.hashed))
}

// firstPage is the direct table's first page (all pages but the first
// have densePage slots).
func (d *denseTable) firstPage() []int32 {
	if len(d.pages) == 0 {
		return nil
	}
	return d.pages[0]
}
