package executor

import "github.com/b2sql/b2sql/columnar"

// multiIntTable is the hash table of a join on several integer-like keys
// (TPC-H's partsupp joins on partkey and suppkey): the intTable layout with
// a tuple of nk keys per slot, hashed and compared as integers, instead of
// encoding every row's keys into a string for a Go map.
type multiIntTable struct {
	nk    int
	shift uint    // 64 - log2(slots)
	keys  []int64 // per slot: nk keys
	head  []int32 // per slot: first row with the key, +1 (0 = empty slot)
	tail  []int32 // per slot: last row with the key, +1
	next  []int32 // per build row: next row with the same key, +1 (0 = end)
	used  int
	tuple []int64 // scratch: the key being inserted or probed
}

// newMultiIntTable returns a table of nk-key tuples sized for about rows
// distinct tuples (a planner estimate, 0 when unknown).
func newMultiIntTable(nk, rows int) *multiIntTable {
	t := &multiIntTable{nk: nk, tuple: make([]int64, nk), next: make([]int32, 0, rows)}
	slots := 1 << 10
	for slots < 2*rows {
		slots *= 2
	}
	t.resize(slots)
	return t
}

func (t *multiIntTable) resize(slots int) {
	oldKeys, oldHead, oldTail := t.keys, t.head, t.tail
	t.keys = make([]int64, slots*t.nk)
	t.head = make([]int32, slots)
	t.tail = make([]int32, slots)
	logn := uint(0)
	for 1<<logn < slots {
		logn++
	}
	t.shift = 64 - logn
	for s, h := range oldHead {
		if h != 0 {
			k := oldKeys[s*t.nk : (s+1)*t.nk]
			i := t.find(k)
			copy(t.keys[i*t.nk:], k)
			t.head[i], t.tail[i] = h, oldTail[s]
		}
	}
}

// hashTuple mixes the keys multiplicatively, one after the other.
func hashTuple(k []int64) uint64 {
	h := uint64(0)
	for _, x := range k {
		h = (h ^ uint64(x)) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	return h * 0xbf58476d1ce4e5b9
}

// find returns the slot holding tuple k, or the empty slot where it
// belongs.
func (t *multiIntTable) find(k []int64) int {
	mask := len(t.head) - 1
	i := int(hashTuple(k) >> t.shift)
	if t.nk == 2 { // the common case, compared without slicing
		a, b := k[0], k[1]
		for t.head[i] != 0 && (t.keys[2*i] != a || t.keys[2*i+1] != b) {
			i = (i + 1) & mask
		}
		return i
	}
	for t.head[i] != 0 && !equalInts(t.keys[i*t.nk:(i+1)*t.nk], k) {
		i = (i + 1) & mask
	}
	return i
}

func equalInts(a, b []int64) bool {
	for i, x := range b {
		if a[i] != x {
			return false
		}
	}
	return true
}

// insert adds build row r (rows inserted in increasing order) with the
// key tuple in t.tuple.
func (t *multiIntTable) insert(r int32) {
	if int(r) >= len(t.next) {
		t.next = append(t.next, make([]int32, int(r)+1-len(t.next))...)
	}
	i := t.find(t.tuple)
	if t.head[i] == 0 {
		if 2*(t.used+1) > len(t.head) {
			t.resize(2 * len(t.head))
			i = t.find(t.tuple)
		}
		copy(t.keys[i*t.nk:], t.tuple)
		t.head[i], t.tail[i] = r+1, r+1
		t.used++
		return
	}
	t.next[t.tail[i]-1] = r + 1
	t.tail[i] = r + 1
}

// loadTuple reads row i's keys into t.tuple; false when one is NULL.
func (t *multiIntTable) loadTuple(keys []*columnar.Vector, i int) bool {
	for c, v := range keys {
		j := i
		if v.Const {
			j = 0
		}
		if v.Valid != nil && !v.Valid.Get(j) {
			return false
		}
		t.tuple[c] = v.Ints[j]
	}
	return true
}

// build inserts the live rows of b (stored from build row base on); it
// reports whether some row had a NULL key.
func (t *multiIntTable) build(keys []*columnar.Vector, b *columnar.Batch, base int32) (sawNull bool) {
	if need := int(base) + b.Live(); need > len(t.next) {
		// Once per batch, so insert's own growth check never fires.
		t.next = append(t.next, make([]int32, need-len(t.next))...)
	}
	for k := range b.Live() {
		if !t.loadTuple(keys, b.Row(k)) {
			sawNull = true
			continue
		}
		t.insert(base + int32(k))
	}
	return sawNull
}

// probe appends the (left position, build row) pairs of rows (the live
// rows of the probe batch; k indexes them), marking NULL keys in lnull.
// It only reads the table, but uses its own scratch tuple: copies of a
// parallel join share one table.
func (t *multiIntTable) probe(keys []*columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32, tuple []int64) ([]int32, []int32) {
	next := t.next
	for k, i := range rows {
		null := false
		for c, v := range keys {
			j := i
			if v.Const {
				j = 0
			}
			if v.Valid != nil && !v.Valid.Get(j) {
				null = true
				break
			}
			tuple[c] = v.Ints[j]
		}
		if null {
			lnull[k] = true
			continue
		}
		for r := t.head[t.find(tuple)]; r != 0; r = next[r-1] {
			pairL = append(pairL, int32(k))
			pairR = append(pairR, r-1)
		}
	}
	return pairL, pairR
}
