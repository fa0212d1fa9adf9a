package hashtab

import (
	"math/bits"

	"github.com/b2sql/b2sql/columnar"
)

// multiIntTable is the hash table of a join on several integer-like keys
// (TPC-H's partsupp joins on partkey and suppkey). The build only collects
// the key tuples; finish, once they are all known, packs each tuple into
// one int64 when the keys' ranges fit in 63 bits together (partkey's 18
// bits and suppkey's 14: packed, a tuple is looked up in an intTable, one
// cache line per slot visited, or even a dense array), and otherwise builds
// the intTable layout with a tuple of nk keys per slot, hashed and
// compared as integers, instead of encoding every row's keys into a string
// for a Go map.
type multiIntTable struct {
	nk    int
	shift uint    // 64 - log2(slots)
	keys  []int64 // per slot: nk keys
	head  []int32 // per slot: first row with the key, +1 (0 = empty slot)
	tail  []int32 // per slot: last row with the key, +1
	next  []int32 // per build row: next row with the same key, +1 (0 = end)
	used  int
	tuple []int64 // scratch: the key being inserted or probed
	// maxRun is the longest chain (MaxMatches) of a chained table.
	maxRun int32

	tb   []BlockList[int64] // building: per key, the inserted tuples' values
	ib   BlockList[int32]   // building: their rows (blocks.go)
	cols [][]int64          // finishing (chained): tb laid out flat
	ins  []int32            // finishing (chained): ib laid out flat

	// Packed tuples: key c minus lo[c] takes the bits from off[c] on;
	// span[c] is hi[c] - lo[c] as unsigned.
	packed    *intTable
	lo        []int64
	span, off []uint64
}

// newMultiIntTable returns an empty table of nk-key tuples.
func newMultiIntTable(nk int) *multiIntTable {
	return &multiIntTable{nk: nk, tuple: make([]int64, nk), tb: make([]BlockList[int64], nk)}
}

// finish builds the table from the inserted tuples: packed when the keys'
// ranges allow, else chained. No insert may follow.
func (t *multiIntTable) finish() {
	if t.pack() {
		// Straight from the blocks (every list of a build has the same
		// block boundaries): the packed keys overwrite the first key's
		// values, and the packed table takes over those and the rows as
		// they are, with no copy of either.
		for b, rows := range t.ib.Blocks {
			packed := t.tb[0].Blocks[b]
			for i := range rows {
				for c := range t.tuple {
					t.tuple[c] = t.tb[c].Blocks[b][i]
				}
				packed[i], _ = t.packKey(t.tuple)
			}
		}
		t.packed = newIntTable()
		t.packed.kb, t.packed.ib = t.tb[0], t.ib
		t.tb, t.ib = nil, BlockList[int32]{}
		t.packed.finish()
		return
	}
	t.cols = make([][]int64, t.nk)
	for c := range t.tb {
		t.cols[c] = t.tb[c].Flat()
	}
	t.ins = t.ib.Flat()
	n := len(t.ins)
	slots := 1 << 4
	for slots < 2*n && slots < intTableMaxStart {
		slots *= 2
	}
	t.resize(slots)
	t.next = make([]int32, 0, n)
	if n > 0 {
		t.next = make([]int32, int(t.ins[n-1])+1)
	}
	for i, r := range t.ins {
		for c, col := range t.cols {
			t.tuple[c] = col[i]
		}
		t.chain(r)
	}
	for _, h := range t.head {
		run := int32(0)
		for r := h; r != 0; r = t.next[r-1] {
			run++
		}
		t.maxRun = max(t.maxRun, run)
	}
	t.cols, t.ins = nil, nil
}

// pack sets lo, span and off when the inserted tuples' keys fit in 63 bits
// together, and reports whether they do.
func (t *multiIntTable) pack() bool {
	if t.ib.N == 0 {
		return false
	}
	lo, hi := make([]int64, t.nk), make([]int64, t.nk)
	for c := range t.nk {
		lo[c], hi[c] = t.tb[c].Blocks[0][0], t.tb[c].Blocks[0][0]
		for _, blk := range t.tb[c].Blocks {
			for _, k := range blk {
				lo[c], hi[c] = min(lo[c], k), max(hi[c], k)
			}
		}
	}
	t.span, t.off = make([]uint64, t.nk), make([]uint64, t.nk)
	used := 0
	for c := range t.nk {
		t.span[c] = uint64(hi[c]) - uint64(lo[c])
		t.off[c] = uint64(used)
		used += bits.Len64(t.span[c])
	}
	if used > 63 {
		t.span, t.off = nil, nil
		return false
	}
	t.lo = lo
	return true
}

// packKey packs tuple k; false when some key is outside the build's range
// (so no build tuple equals k).
func (t *multiIntTable) packKey(k []int64) (int64, bool) {
	p := uint64(0)
	for c, x := range k {
		d := uint64(x) - uint64(t.lo[c])
		if d > t.span[c] {
			return 0, false
		}
		p |= d << t.off[c]
	}
	return int64(p), true
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
	for c, k := range t.tuple {
		t.tb[c].Push(k)
	}
	t.ib.Push(r)
}

// chain links build row r with the key tuple in t.tuple into the chained
// table; next has room for r.
func (t *multiIntTable) chain(r int32) {
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
	return keyTuple(keys, i, t.tuple)
}

// build inserts the live rows of b (stored from build row base on); it
// reports whether some row had a NULL key.
func (t *multiIntTable) build(keys []*columnar.Vector, b *columnar.Batch, base int32) (sawNull bool) {
	for k := range b.Live() {
		if !t.loadTuple(keys, b.Row(k)) {
			sawNull = true
			continue
		}
		t.insert(base + int32(k))
	}
	return sawNull
}

// multiProbe is the scratch of one join copy probing a multiIntTable
// (copies of a parallel join share one table).
type multiProbe struct {
	tuple  []int64         // the key being probed
	packed columnar.Vector // packed tables: the batch's packed keys
}

// probe appends the (left position, build row) pairs of rows (the live
// rows of the probe batch; k indexes them), marking NULL keys in lnull.
// It only reads the table; sc is the caller's scratch.
func (t *multiIntTable) probe(keys []*columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32, sc *multiProbe) ([]int32, []int32) {
	if len(sc.tuple) != t.nk {
		sc.tuple = make([]int64, t.nk)
	}
	tuple := sc.tuple
	if t.packed != nil {
		return t.probePacked(keys, rows, lnull, pairL, pairR, sc)
	}
	next := t.next
	for k, i := range rows {
		if !keyTuple(keys, i, tuple) {
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

// keyTuple fills tuple with row i's keys; false when one is NULL.
func keyTuple(keys []*columnar.Vector, i int, tuple []int64) bool {
	for c, v := range keys {
		j := i
		if v.Const {
			j = 0
		}
		if v.Valid != nil && !v.Valid.Get(j) {
			return false
		}
		tuple[c] = v.Ints[j]
	}
	return true
}

// probePacked is probe over packed tuples: the batch's keys are packed
// first, then probed as one integer key column (with the intTable's
// batched probe). A tuple outside the build's ranges gets -1, which no
// packed key (63 bits at most) equals.
func (t *multiIntTable) probePacked(keys []*columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32, sc *multiProbe) ([]int32, []int32) {
	if len(rows) == 0 {
		return pairL, pairR
	}
	v := &sc.packed
	v.Type = columnar.TInt64
	v.Reset(rows[len(rows)-1] + 1)
	for k, i := range rows {
		p, ok := int64(-1), keyTuple(keys, i, sc.tuple)
		if !ok {
			lnull[k] = true
		} else if q, in := t.packKey(sc.tuple); in {
			p = q
		}
		v.Ints[i] = p
	}
	return t.packed.probeInts(v, rows, lnull, pairL, pairR)
}
