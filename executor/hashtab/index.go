package hashtab

import (
	"github.com/b2sql/b2sql/columnar"
)

// Index maps a join's build keys to the build rows holding them. Add
// collects the keys of the build side's batches, its rows numbered by the
// caller (base + k for the k-th live row of a batch); Finish lays the rows
// out grouped by key, in insertion order within a key, once their number
// is known; Probe then only reads, so the copies of a parallel join probe
// one Index, each with a ProbeScratch of its own. A row with a NULL key
// is never added (NULL matches nothing).
type Index interface {
	// Add collects the live rows of b with keys; it reports whether some
	// row had a NULL key (and was left out).
	Add(b *columnar.Batch, keys []*columnar.Vector, base int32) (sawNull bool)
	// Finish builds the table; no Add may follow.
	Finish()
	// Probe appends the pair (k, r) to pairL, pairR for every build row r
	// whose key equals that of probe row rows[k] (rows: the live rows of
	// the probe batch, over which keys are evaluated), build rows in
	// insertion order, and sets lnull[k] for a probe row with a NULL key.
	Probe(keys []*columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32, sc *ProbeScratch) ([]int32, []int32)
	// Bytes returns the memory the Index holds.
	Bytes() int64
	// Growth returns what an Add of n more rows may allocate, and
	// FinishBytes what Finish may allocate beyond Bytes at its peak (the
	// finished table and the lists it is built from at once): a join
	// reserves them before, so that a build past its memory is refused
	// before the allocation, not after.
	Growth(n int) int64
	FinishBytes() int64
	// MaxMatches bounds the build rows one probe row can match (the
	// largest group of rows under one key, or one bucket of a range
	// table), known once Finish ran: a prober that must bound the pairs
	// one call returns passes at most limit/MaxMatches rows.
	MaxMatches() int
}

// ProbeScratch is the scratch of one prober of an Index.
type ProbeScratch struct {
	multi  multiProbe // several integer keys
	finder Finder     // the other keys: the Map's lookup
	gids   []int32
	batch  columnar.Batch // the probe rows, as Find takes them
}

// NewIndex returns an empty Index for keys of types, chosen by their
// shape: one integer-like key (integers, DECIMAL, DATE, TIMESTAMP) in
// intTable (a range table when the keys are dense enough, else hashed);
// several in multiIntTable (packed into one integer when their ranges fit,
// else hashed as tuples); any other keys in a Map, rows grouped by id.
func NewIndex(types []columnar.Type) Index {
	allInts := len(types) > 0
	for _, t := range types {
		allInts = allInts && t.Phys() == columnar.PhysInt
	}
	switch {
	case allInts && len(types) == 1:
		return newIntTable()
	case allInts:
		return newMultiIntTable(len(types))
	}
	return newMapIndex(types)
}

// Add collects the live rows of b (stored from build row base on).
func (t *intTable) Add(b *columnar.Batch, keys []*columnar.Vector, base int32) (sawNull bool) {
	v := keys[0]
	n := b.Live()
	for k := range n {
		i := b.Row(k)
		if v.Const {
			i = 0
		}
		if v.Valid != nil && !v.Valid.Get(i) {
			sawNull = true
			continue
		}
		t.insert(v.Ints[i], base+int32(k))
	}
	return sawNull
}

func (t *intTable) Finish() { t.finish() }

func (t *intTable) Probe(keys []*columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32, _ *ProbeScratch) ([]int32, []int32) {
	return t.probeInts(keys[0], rows, lnull, pairL, pairR)
}

func (t *intTable) MaxMatches() int { return int(t.maxRun) }

func (t *intTable) Bytes() int64 {
	return t.tabBytes() + 4*int64(len(t.rows)+len(t.dense)) + 8*int64(len(t.ents)) + t.kb.bytes(8) + t.ib.bytes(4)
}

func (t *intTable) Growth(n int) int64 { return t.kb.growth(n, 8) + t.ib.growth(n, 4) }

// FinishBytes is exact when the keys are dense (finishRange then builds
// a dense range table for certain: an int32 per key of the span and one
// per row, each array rounded up as the allocator does, allocRound);
// otherwise the bound for keys all distinct, which a build with many rows
// per key overstates (10M rows of 1M dense user ids: 925 MB of slots
// bounded, 44 MB built).
func (t *intTable) FinishBytes() int64 {
	n := t.kb.N
	if span := uint64(t.kmax) - uint64(t.kmin); n > 0 && span < uint64(denseSpan*n) {
		return allocRound(4*int64(span+2)) + allocRound(4*int64(n))
	}
	return finishIntsBytes(n)
}

// allocRound bounds what the Go allocator takes for an object of n bytes:
// a size class at most an eighth larger up to 32 KiB, whole 8 KiB pages
// beyond.
func allocRound(n int64) int64 { return n + min(n/8, 8<<10) }

func (t *multiIntTable) Add(b *columnar.Batch, keys []*columnar.Vector, base int32) bool {
	return t.build(keys, b, base)
}

func (t *multiIntTable) Finish() { t.finish() }

func (t *multiIntTable) Probe(keys []*columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32, sc *ProbeScratch) ([]int32, []int32) {
	return t.probe(keys, rows, lnull, pairL, pairR, &sc.multi)
}

func (t *multiIntTable) MaxMatches() int {
	if t.packed != nil {
		return t.packed.MaxMatches()
	}
	return int(t.maxRun)
}

func (t *multiIntTable) Bytes() int64 {
	n := 4*int64(len(t.start)+len(t.rows)) + t.ib.bytes(4)
	for c := range t.tb {
		n += t.tb[c].bytes(8)
	}
	if t.words != nil {
		n += t.words.bytes()
	}
	if t.packed != nil {
		n += t.packed.Bytes()
	}
	return n
}

func (t *multiIntTable) Growth(n int) int64 {
	g := t.ib.growth(n, 4)
	if len(t.tb) > 0 {
		g += int64(len(t.tb)) * t.tb[0].growth(n, 8)
	}
	return g
}

// FinishBytes: packed, the intTable's finish over the lists in place; as
// words, the word table of as many keys as rows (its doubling slots and
// key chunks), an id per row, and groupRows' start, copy and grouped rows
// (4 bytes a row each), and the lists of chunks and blocks (growing by
// append: under 16 KiB below millions of rows, 48 bytes a chunk past).
func (t *multiIntTable) FinishBytes() int64 {
	n := t.ib.N
	var ids BlockList[int32]
	words := doublingBytes(256, 0, n, 8) + 256*8 + 8*chunkGrowth(0, 0, n, t.nk) + ids.growth(n, 4) + 12*int64(n) + 16<<10 + 48*int64(n>>keyChunkBits)
	return max(finishIntsBytes(n), words)
}

// mapIndex is the Index of keys that are not all integers: a Map numbers
// the distinct keys, and Finish groups the rows by id (a counting sort, so
// a key's rows keep their order).
type mapIndex struct {
	m      Map
	ids    BlockList[int32] // building: per added row, its key's id
	rb     BlockList[int32] // building: the added rows
	start  []int32          // finished: id g's rows are rows[start[g]:start[g+1]]
	rows   []int32
	sel    []int
	gids   []int32
	live   columnar.Batch
	maxRun int32 // finished: the most rows of one id
}

func newMapIndex(types []columnar.Type) *mapIndex {
	m := New(types)
	if c, ok := unwrap(m).(*compositeKeys); ok {
		// The build stores its rows anyway: no lead key, whose table would
		// be migrated before the first probe, and no guess from the first
		// batch.
		c.decided = true
	}
	return &mapIndex{m: m}
}

func (x *mapIndex) Add(b *columnar.Batch, keys []*columnar.Vector, base int32) (sawNull bool) {
	mayNull := false
	for _, v := range keys {
		mayNull = mayNull || v.Valid != nil || v.Type.ID == columnar.Null
	}
	x.live = columnar.Batch{Cols: keys, Len: b.Len, Sel: b.Sel}
	if mayNull {
		// Only the live rows with no NULL key.
		x.sel = x.sel[:0]
		b.ForEach(func(i int) {
			if anyNull(keys, i) {
				sawNull = true
				return
			}
			x.sel = append(x.sel, i)
		})

		x.live.Sel = x.sel
	}
	x.gids = growBatch(x.gids, b.Len)
	if x.live.Live() > 0 {
		x.m.Assign(&x.live, keys, x.gids)
	}
	// Build row base+k is b's k-th live row.
	for k := range b.Live() {
		i := b.Row(k)
		if mayNull && anyNull(keys, i) {
			continue
		}
		x.ids.Push(x.gids[i])
		x.rb.Push(base + int32(k))
	}
	return sawNull
}

// anyNull reports whether row i has a NULL key.
func anyNull(keys []*columnar.Vector, i int) bool {
	for _, v := range keys {
		if v.IsNull(idx(v, i)) {
			return true
		}
	}
	return false
}

func (x *mapIndex) Finish() {
	x.start, x.rows, x.maxRun = groupRows(&x.ids, &x.rb, x.m.Len())
	x.ids, x.rb = BlockList[int32]{}, BlockList[int32]{}
	x.m.Finder() // settles the Map before probers share it
}

// groupRows lays out rows (per added row, its build row) grouped by ids
// (per added row, its key's id, below n), in insertion order within an id
// (a counting sort): id g's rows are grouped[start[g]:start[g+1]]. maxRun
// is the most rows of one id.
func groupRows(ids, rows *BlockList[int32], n int) (start, grouped []int32, maxRun int32) {
	start = make([]int32, n+1)
	for _, blk := range ids.Blocks {
		for _, g := range blk {
			start[g+1]++
		}
	}
	for g := 1; g <= n; g++ {
		maxRun = max(maxRun, start[g])
		start[g] += start[g-1]
	}
	next := append([]int32(nil), start[:n]...)
	grouped = make([]int32, rows.N)
	for b, blk := range ids.Blocks {
		for i, g := range blk {
			grouped[next[g]] = rows.Blocks[b][i]
			next[g]++
		}
	}
	return start, grouped, maxRun
}

func (x *mapIndex) Probe(keys []*columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32, sc *ProbeScratch) ([]int32, []int32) {
	if len(rows) == 0 {
		return pairL, pairR
	}
	if sc.finder == nil {
		sc.finder = x.m.Finder()
	}
	n := rows[len(rows)-1] + 1
	sc.gids = growBatch(sc.gids, n)
	sc.batch = columnar.Batch{Cols: keys, Len: n, Sel: rows}
	sc.finder.Find(&sc.batch, keys, sc.gids)
	for k, i := range rows {
		if anyNull(keys, i) {
			lnull[k] = true
			continue
		}
		g := sc.gids[i]
		if g < 0 {
			continue
		}
		for _, r := range x.rows[x.start[g]:x.start[g+1]] {
			pairL = append(pairL, int32(k))
			pairR = append(pairR, r)
		}
	}
	return pairL, pairR
}

func (x *mapIndex) MaxMatches() int { return int(x.maxRun) }

func (x *mapIndex) Bytes() int64 {
	return x.m.Bytes() + 4*int64(len(x.start)+len(x.rows)) + x.ids.bytes(4) + x.rb.bytes(4)
}

func (x *mapIndex) Growth(n int) int64 { return x.m.Growth(n) + x.ids.growth(n, 4) + x.rb.growth(n, 4) }

// FinishBytes: start and its copy (4 bytes a key each) and rows (4 a
// row); the Map's Finder may repack it once (a lead key moving to the
// word table: at most what the Map holds again).
func (x *mapIndex) FinishBytes() int64 {
	return 8*int64(x.m.Len()+1) + 4*int64(x.rb.N) + x.m.Bytes()/2
}
