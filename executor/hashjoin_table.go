package executor

import "github.com/b2sql/b2sql/columnar"

// intTable is the hash table of a join on one integer-like key (every type
// stored as int64: integers, DECIMAL, DATE, TIMESTAMP): open addressing on
// the key itself, no per-row encoding or allocation. A slot holds the key
// and its row count (16 bytes), so finding a key touches one cache line
// per slot visited. The build only collects the keys; finish, once the
// build is complete, sizes the table for the rows actually built (a
// planner's estimate can be far off either way: zeroing a table sized for
// an estimate of 1M rows cost TPC-H Q3 a quarter of its time for 147K real
// ones), inserts them and lays the build rows out grouped by key, in
// insertion order within a key, each slot pointing at its group: probing
// reads a key's rows sequentially instead of chasing a chain through
// memory, and emits matches in the order the build side produced them.
type intTable struct {
	shift uint      // 64 - log2(len(slots))
	slots []intSlot // power-of-two many, at most half used
	used  int       // occupied slots (distinct keys)

	kb   blockList[int64] // building: the inserted keys, in order
	ib   blockList[int32] // building: their rows (hashjoin_blocks.go)
	keys []int64          // finishing: kb laid out flat
	ins  []int32          // finishing: ib laid out flat
	rows []int32          // finished: the build rows grouped by key

	// Dense keys (hashjoin_dense.go): instead of slots, key lo+o has rows
	// rows[dense[o]:dense[o+1]].
	lo    int64
	dense []int32
}

type intSlot struct {
	key int64
	n   int32 // rows with the key (0 = empty slot)
	x   int32 // finishing: the key's group; finished: its first position in rows
}

// newIntTable returns an empty table.
func newIntTable() *intTable { return &intTable{} }

func (t *intTable) resize(n int) {
	old := t.slots
	t.slots = make([]intSlot, n)
	bitsN := uint(0)
	for 1<<bitsN < n {
		bitsN++
	}
	t.shift = 64 - bitsN
	for _, sl := range old {
		if sl.n != 0 {
			t.slots[t.find(sl.key)] = sl
		}
	}
}

// find returns the slot holding k, or the empty slot where k belongs. The
// multiplicative hash's top bits pick the slot.
func (t *intTable) find(k int64) int {
	mask := len(t.slots) - 1
	i := int((uint64(k) * 0x9e3779b97f4a7c15) >> t.shift)
	for {
		sl := &t.slots[i]
		if sl.n == 0 || sl.key == k {
			return i
		}
		i = (i + 1) & mask
	}
}

// insert adds build row r (rows are inserted in increasing order) with
// key k.
func (t *intTable) insert(k int64, r int32) {
	t.kb.add(k)
	t.ib.add(r)
}

// intTableMaxStart bounds the slots finish starts with: past it, a build
// with many rows per key would get a table mostly empty, so the table
// grows as distinct keys come instead.
const intTableMaxStart = 1 << 21

// finish builds the table from the inserted keys, then groups the rows by
// key (a counting sort by group, so a key's rows keep their insertion
// order) and points every slot at its group. No insert may follow.
func (t *intTable) finish() {
	t.keys, t.ins = t.kb.flat(), t.ib.flat()
	n := len(t.keys)
	if t.finishDense() {
		return
	}
	slots := 1 << 4
	for slots < 2*n && slots < intTableMaxStart {
		slots *= 2
	}
	t.resize(slots)
	gids := make([]int32, n) // per inserted row: its key's group
	for i, k := range t.keys {
		sl := &t.slots[t.find(k)]
		if sl.n == 0 {
			if 2*(t.used+1) > len(t.slots) {
				t.resize(2 * len(t.slots))
				sl = &t.slots[t.find(k)]
			}
			*sl = intSlot{key: k, x: int32(t.used)}
			t.used++
		}
		sl.n++
		gids[i] = sl.x
	}
	t.keys = nil
	start := make([]int32, t.used) // per group: next free position
	off := int32(0)
	for i := range t.slots {
		sl := &t.slots[i]
		if sl.n == 0 {
			continue
		}
		g := sl.x
		start[g], sl.x = off, off
		off += sl.n
	}
	t.rows = make([]int32, n)
	for i, r := range t.ins {
		g := gids[i]
		t.rows[start[g]] = r
		start[g]++
	}
	t.ins = nil
}

// match returns the build rows with key k, in build order (nil: none).
// The table must be finished.
func (t *intTable) match(k int64) []int32 {
	if t.dense != nil {
		o := uint64(k) - uint64(t.lo)
		if o >= uint64(len(t.dense)-1) {
			return nil
		}
		return t.rows[t.dense[o]:t.dense[o+1]]
	}
	sl := &t.slots[t.find(k)]
	return t.rows[sl.x : sl.x+sl.n]
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
		m := t.match(v.Ints[0])
		for k := range rows {
			for _, r := range m {
				pairL = append(pairL, int32(k))
				pairR = append(pairR, r)
			}
		}
		return pairL, pairR
	}
	vals := v.Ints
	for k, i := range rows {
		if v.Valid != nil && !v.Valid.Get(i) {
			lnull[k] = true
			continue
		}
		for _, r := range t.match(vals[i]) {
			pairL = append(pairL, int32(k))
			pairR = append(pairR, r)
		}
	}
	return pairL, pairR
}
