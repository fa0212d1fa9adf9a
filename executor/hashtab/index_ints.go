package hashtab

import "github.com/b2sql/b2sql/columnar"

// intTable is the hash table of a join on one integer-like key (every type
// stored as int64: integers, DECIMAL, DATE, TIMESTAMP): the integer key
// table (intKeyTable, the one GROUP BY uses) on the key itself, no per-row
// encoding or allocation. A slot holds the key and its row count (16
// bytes), so finding a key touches one cache line per slot visited. The
// build only collects the keys; finish, once the build is complete, sizes
// the table for the rows actually built (a planner's estimate can be far
// off either way: zeroing a table sized for an estimate of 1M rows cost
// TPC-H Q3 a quarter of its time for 147K real ones), inserts them and lays
// the build rows out grouped by key, in insertion order within a key, each
// slot pointing at its group: probing reads a key's rows sequentially
// instead of chasing a chain through memory, and emits matches in the
// order the build side produced them.
type intTable struct {
	// tab: per key, val = its rows and aux = its first position in rows;
	// at most half used (misses stop sooner). nil until finish.
	tab *intKeyTable
	// maxRun is the most rows under one slot or range bucket (MaxMatches).
	maxRun int32

	kb   BlockList[int64] // building: the inserted keys, in order
	ib   BlockList[int32] // building: their rows (blocks.go)
	kmin int64            // building: the least and greatest key inserted,
	kmax int64            // for FinishBytes
	rows []int32          // finished: the build rows grouped by key

	// Range tables (index_range.go): instead of slots, bucket o (the
	// keys lo+o<<rshift on) has rows rows[dense[o]:dense[o+1]], or when
	// rshift > 0 ents[dense[o]:dense[o+1]] with their keys.
	lo     int64
	rshift uint
	dense  []int32
	ents   []rangeEntry
}

// newIntTable returns an empty table.
func newIntTable() *intTable { return &intTable{} }

// insert adds build row r (rows are inserted in increasing order) with
// key k.
func (t *intTable) insert(k int64, r int32) {
	if t.kb.N == 0 {
		t.kmin, t.kmax = k, k
	} else {
		t.kmin, t.kmax = min(t.kmin, k), max(t.kmax, k)
	}
	t.kb.Push(k)
	t.ib.Push(r)
}

// intTableMaxStart bounds the slots finish starts with: past it, a build
// with many rows per key would get a table mostly empty, so the table
// grows as distinct keys come instead.
const intTableMaxStart = 1 << 21

// slotsFor is the most slots finish gives n keys: the power of two
// at least 2n.
func slotsFor(n int) int {
	slots := 1 << 4
	for slots < 2*n {
		slots *= 2
	}
	return slots
}

// finishIntsBytes bounds what finish allocates for n inserted keys beyond
// the lists: the slots (16 bytes each; half again while they double past
// intTableMaxStart), a group and a start per key and the rows grouped (4
// bytes each), or a range table's (at most 4 buckets and one 8-byte entry
// a row), whichever is more.
func finishIntsBytes(n int) int64 {
	slots := int64(slotsFor(n)) * 16
	if n > intTableMaxStart/2 {
		slots = slots * 3 / 2
	}
	return max(slots+12*int64(n), 24*int64(n)+8)
}

// finish builds the table from the inserted keys, then groups the rows by
// key (a counting sort by group, so a key's rows keep their insertion
// order) and points every slot at its group. No insert may follow.
func (t *intTable) finish() {
	defer func() { t.kb, t.ib = BlockList[int64]{}, BlockList[int32]{} }()
	n := t.kb.N
	if t.finishRange() {
		return
	}
	slots := 1 << 4
	for slots < 2*n && slots < intTableMaxStart {
		slots *= 2
	}
	t.tab = newIntKeyTable(slots, 2)
	gids := make([]int32, 0, n) // per inserted row: its key's group
	groups := int32(0)
	for _, blk := range t.kb.Blocks {
		for _, k := range blk {
			sl := t.tab.slot(k)
			if sl.val != 0 {
				sl.val++
				gids = append(gids, sl.aux)
				continue
			}
			*sl = intKeySlot{key: k, val: 1, aux: groups}
			gids = append(gids, groups)
			groups++
			t.tab.added()
		}
	}
	start := make([]int32, groups) // per group: next free position
	off := int32(0)
	for i := range t.tab.slots {
		sl := &t.tab.slots[i]
		if sl.val == 0 {
			continue
		}
		g := sl.aux
		t.maxRun = max(t.maxRun, sl.val)
		start[g], sl.aux = off, off
		off += sl.val
	}
	t.rows = make([]int32, n)
	i := 0
	for _, blk := range t.ib.Blocks {
		for _, r := range blk {
			g := gids[i]
			t.rows[start[g]] = r
			start[g]++
			i++
		}
	}
}

// appendMatches appends the pair (l, r) for each build row r with key k,
// in build order. The table must be finished.
func (t *intTable) appendMatches(k int64, l int32, pairL, pairR []int32) ([]int32, []int32) {
	if t.dense != nil {
		return t.appendRange(k, l, pairL, pairR) // index_range.go
	}
	sl := t.tab.slot(k)
	for _, r := range t.rows[sl.aux : sl.aux+sl.val] {
		pairL = append(pairL, l)
		pairR = append(pairR, r)
	}
	return pairL, pairR
}

// probeInts appends the (left position, build row) pairs of the live rows
// of v, marking NULL keys in lnull. rows are the live rows of the batch;
// k indexes them.
func (t *intTable) probeInts(v *columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32) ([]int32, []int32) {
	if v.Const {
		if v.IsNull(0) {
			for k := range rows {
				lnull[k] = true
			}
			return pairL, pairR
		}
		for k := range rows {
			pairL, pairR = t.appendMatches(v.Ints[0], int32(k), pairL, pairR)
		}
		return pairL, pairR
	}
	if t.dense != nil {
		return t.probeRange(v, rows, lnull, pairL, pairR) // index_range.go
	}
	vals := v.Ints
	for k, i := range rows {
		if v.Valid != nil && !v.Valid.Get(i) {
			lnull[k] = true
			continue
		}
		sl := t.tab.slot(vals[i])
		for _, r := range t.rows[sl.aux : sl.aux+sl.val] {
			pairL = append(pairL, int32(k))
			pairR = append(pairR, r)
		}
	}
	return pairL, pairR
}

// tabBytes is the memory of the slots (none before finish or for a range
// table).
func (t *intTable) tabBytes() int64 {
	if t.tab == nil {
		return 0
	}
	return t.tab.bytes()
}
