package executor

import "github.com/b2sql/b2sql/columnar"

// intTable is the hash table of a join on one integer-like key (every type
// stored as int64: integers, DECIMAL, DATE, TIMESTAMP): open addressing on
// the key itself, no per-row encoding or allocation, and the build rows of
// a key chained in insertion order, so that probing emits matches in the
// order the build side produced them.
type intTable struct {
	shift uint    // 64 - log2(len(keys))
	keys  []int64 // per slot
	head  []int32 // per slot: first row with the key, +1 (0 = empty slot)
	tail  []int32 // per slot: last row with the key, +1
	next  []int32 // per build row: next row with the same key, +1 (0 = end)
	used  int     // occupied slots
}

func newIntTable() *intTable {
	t := &intTable{}
	t.resize(1 << 10)
	return t
}

func (t *intTable) resize(slots int) {
	oldKeys, oldHead, oldTail := t.keys, t.head, t.tail
	t.keys = make([]int64, slots)
	t.head = make([]int32, slots)
	t.tail = make([]int32, slots)
	bitsN := uint(0)
	for 1<<bitsN < slots {
		bitsN++
	}
	t.shift = 64 - bitsN
	for s, h := range oldHead {
		if h != 0 {
			i := t.find(oldKeys[s])
			t.keys[i], t.head[i], t.tail[i] = oldKeys[s], h, oldTail[s]
		}
	}
}

// find returns the slot holding k, or the empty slot where k belongs.
func (t *intTable) find(k int64) int {
	mask := len(t.keys) - 1
	i := int((uint64(k) * 0x9e3779b97f4a7c15) >> t.shift)
	for t.head[i] != 0 && t.keys[i] != k {
		i = (i + 1) & mask
	}
	return i
}

// insert adds build row r (rows are inserted in increasing order) with
// key k.
func (t *intTable) insert(k int64, r int32) {
	if int(r) >= len(t.next) {
		t.next = append(t.next, make([]int32, int(r)+1-len(t.next))...)
	}
	i := t.find(k)
	if t.head[i] == 0 {
		if 2*(t.used+1) > len(t.keys) {
			t.resize(2 * len(t.keys))
			i = t.find(k)
		}
		t.keys[i], t.head[i], t.tail[i] = k, r+1, r+1
		t.used++
		return
	}
	t.next[t.tail[i]-1] = r + 1
	t.tail[i] = r + 1
}

// first returns the first build row with key k, +1 (0: none); next[row]
// continues the chain.
func (t *intTable) first(k int64) int32 {
	return t.head[t.find(k)]
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
