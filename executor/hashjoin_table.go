package executor

import "github.com/b2sql/b2sql/columnar"

// intTable is the hash table of a join on one integer-like key (every type
// stored as int64: integers, DECIMAL, DATE, TIMESTAMP): open addressing on
// the key itself, no per-row encoding or allocation, and the build rows of
// a key chained in insertion order, so that probing emits matches in the
// order the build side produced them. A slot holds the key next to its
// chain ends (16 bytes), so a probe touches one cache line per slot
// visited, not one per array.
type intTable struct {
	shift uint      // 64 - log2(len(slots))
	slots []intSlot // power-of-two many, at most half used
	next  []int32   // per build row: next row with the same key, +1 (0 = end)
	used  int       // occupied slots
}

type intSlot struct {
	key  int64
	head int32 // first row with the key, +1 (0 = empty slot)
	tail int32 // last row with the key, +1
}

// newIntTable returns a table sized for about rows distinct keys (a
// planner estimate, 0 when unknown) without growing: growing rehashes
// every key so far.
func newIntTable(rows int) *intTable {
	t := &intTable{next: make([]int32, 0, rows)}
	slots := 1 << 10
	for slots < 2*rows {
		slots *= 2
	}
	t.resize(slots)
	return t
}

func (t *intTable) resize(n int) {
	old := t.slots
	t.slots = make([]intSlot, n)
	bitsN := uint(0)
	for 1<<bitsN < n {
		bitsN++
	}
	t.shift = 64 - bitsN
	for _, sl := range old {
		if sl.head != 0 {
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
		if sl.head == 0 || sl.key == k {
			return i
		}
		i = (i + 1) & mask
	}
}

// insert adds build row r (rows are inserted in increasing order) with
// key k.
func (t *intTable) insert(k int64, r int32) {
	if int(r) >= len(t.next) {
		t.next = append(t.next, make([]int32, int(r)+1-len(t.next))...)
	}
	i := t.find(k)
	sl := &t.slots[i]
	if sl.head == 0 {
		if 2*(t.used+1) > len(t.slots) {
			t.resize(2 * len(t.slots))
			sl = &t.slots[t.find(k)]
		}
		*sl = intSlot{key: k, head: r + 1, tail: r + 1}
		t.used++
		return
	}
	t.next[sl.tail-1] = r + 1
	sl.tail = r + 1
}

// first returns the first build row with key k, +1 (0: none); next[row]
// continues the chain.
func (t *intTable) first(k int64) int32 {
	return t.slots[t.find(k)].head
}

// probeInts appends the (left position, build row) pairs of the live rows
// of v, marking NULL keys in lnull. rows are the live rows of the batch;
// k indexes them.
func (t *intTable) probeInts(v *columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32) ([]int32, []int32) {
	next := t.next
	if v.Const {
		if v.IsNull(0) {
			for k := range rows {
				lnull[k] = true
			}
			return pairL, pairR
		}
		h := t.first(v.Ints[0])
		for k := range rows {
			for r := h; r != 0; r = next[r-1] {
				pairL = append(pairL, int32(k))
				pairR = append(pairR, r-1)
			}
		}
		return pairL, pairR
	}
	vals := v.Ints
	if v.Valid == nil {
		for k, i := range rows {
			for r := t.first(vals[i]); r != 0; r = next[r-1] {
				pairL = append(pairL, int32(k))
				pairR = append(pairR, r-1)
			}
		}
		return pairL, pairR
	}
	for k, i := range rows {
		if !v.Valid.Get(i) {
			lnull[k] = true
			continue
		}
		for r := t.first(vals[i]); r != 0; r = next[r-1] {
			pairL = append(pairL, int32(k))
			pairR = append(pairR, r-1)
		}
	}
	return pairL, pairR
}
