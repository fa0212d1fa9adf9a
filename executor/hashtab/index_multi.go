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
// cache line per slot visited, or even a dense array), and otherwise
// numbers the tuples in the word table GROUP BY uses for composite keys
// (keyTable, nk words a key, hashed and compared as integers) and groups
// the rows by that id, as mapIndex does, instead of encoding every row's
// keys into a string for a Go map.
type multiIntTable struct {
	nk    int
	tuple []int64 // scratch: the key being inserted
	// maxRun is the most rows under one key (MaxMatches) of a word table.
	maxRun int32

	tb []BlockList[int64] // building: per key, the inserted tuples' values
	ib BlockList[int32]   // building: their rows (blocks.go)

	// Tuples as words: id g's rows are rows[start[g]:start[g+1]].
	words *keyTable
	start []int32
	rows  []int32

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
// ranges allow, else in the word table. No insert may follow.
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
	t.words = newKeyTable(t.nk)
	key := make([]uint64, t.nk)
	var ids BlockList[int32] // per inserted row: its tuple's id
	n := int32(0)
	create := func() int32 { n++; return n - 1 }
	for b, rows := range t.ib.Blocks {
		for i := range rows {
			for c := range key {
				key[c] = uint64(t.tb[c].Blocks[b][i])
			}
			ids.Push(t.words.find(key, hashWords(key), create))
		}
	}
	t.start, t.rows, t.maxRun = groupRows(&ids, &t.ib, int(n))
	t.tb, t.ib = nil, BlockList[int32]{}
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

// insert adds build row r (rows inserted in increasing order) with the
// key tuple in t.tuple.
func (t *multiIntTable) insert(r int32) {
	for c, k := range t.tuple {
		t.tb[c].Push(k)
	}
	t.ib.Push(r)
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
	words  []uint64        // word tables: the tuple as words
	packed columnar.Vector // packed tables: the batch's packed keys
}

// probe appends the (left position, build row) pairs of rows (the live
// rows of the probe batch; k indexes them), marking NULL keys in lnull.
// It only reads the table; sc is the caller's scratch.
func (t *multiIntTable) probe(keys []*columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32, sc *multiProbe) ([]int32, []int32) {
	if len(sc.tuple) != t.nk {
		sc.tuple, sc.words = make([]int64, t.nk), make([]uint64, t.nk)
	}
	if t.packed != nil {
		return t.probePacked(keys, rows, lnull, pairL, pairR, sc)
	}
	tuple, words := sc.tuple, sc.words
	for k, i := range rows {
		if !keyTuple(keys, i, tuple) {
			lnull[k] = true
			continue
		}
		for c, x := range tuple {
			words[c] = uint64(x)
		}
		g := t.words.lookup(words, hashWords(words))
		if g < 0 {
			continue
		}
		for _, r := range t.rows[t.start[g]:t.start[g+1]] {
			pairL = append(pairL, int32(k))
			pairR = append(pairR, r)
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
