package executor

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/index"
)

// JoinFilter is the key set of a hash join's build side, handed to the
// scan under the join's probe side (a runtime join filter): its range
// [Lo, Hi] lets the scan skip row groups, pages and blocks whose min/max
// miss it (the planner offers it to the table as a BETWEEN predicate), and
// its membership test (a bitmap over the range when the range is small,
// else a blocked bloom filter) drops probe rows whose key the build side
// does not have before they reach the join. Membership is one-sided: a key
// the build side has always passes; an absent key may pass (bloom false
// positive), the join then finds no match for it.
//
// The keys and the membership test are reserved from the query's memory
// manager (the join's "join filter" reservation). A build whose keys pass
// what it may hold keeps only their range: the test then passes every key
// in the range (Kind "range"), which is still one-sided.
//
// The join fills the filter once its build side is complete (HashJoin
// opens its probe side only after that), so the scan, opened later, reads
// a finished filter. One filter serves every worker copy of a parallel
// probe pipeline; it is never written while probes run.
type JoinFilter struct {
	// Key is the position of the join key (HashJoin.RightKeys) whose
	// values fill the filter; it must have a PhysInt type.
	Key int
	// Desc names the filter for EXPLAIN, e.g. "l_orderkey from orders".
	Desc string

	ready  atomic.Bool
	keys   hashtab.BlockList[int64] // collected during the build (hashtab.BlockList); empty once finished
	empty  bool                     // the build side has no non-NULL key
	lo, hi int64                    // the range, kept as keys come
	seen   bool                     // some key came (lo and hi are set)
	bitmap []uint64                 // bit k-lo, when the range is small
	bloom  blockedBloom
	// res reserves the keys, then the test; held is what it holds for
	// the keys. rangeOnly: the manager refused them, the filter keeps
	// the range alone.
	res       *memory.Reservation
	held      int64
	rangeOnly bool

	// Rows the membership test dropped, over every probe copy (and the
	// scan, when it applies the test).
	Dropped atomic.Int64

	// inScan: the scan under the probe side applies the membership test
	// to its rows (KeySet), so the JoinFilterOps above it pass rows through.
	inScan atomic.Bool
}

// bitmapLimit is the widest key range (in bits: 128 KiB) always kept as a
// bitmap; wider ranges use the bloom filter unless the bitmap is at most
// bitmapPerBloom times the bloom filter's size. A bitmap test needs no
// hashing, and a probe side clustered on the key (lineitem on l_orderkey)
// reads it in order: over TPC-H's order keys (6M wide, 750 KiB) a bitmap
// tests a batch 2-8x faster than the bloom filter of 57k-146k keys
// (BenchmarkJoinFilterSelect), for at most 16-32 bytes per key, what the
// join's own table spends.
const (
	bitmapLimit    = 1 << 20
	bitmapPerBloom = 8
)

// reset prepares the filter for a new build (a join may be reopened),
// reserving from m (nil: no accounting).
func (f *JoinFilter) reset(m *memory.Manager) {
	f.ready.Store(false)
	f.inScan.Store(false)
	f.keys = hashtab.BlockList[int64]{}
	f.seen, f.rangeOnly = false, false
	f.Dropped.Store(0)
	if f.res == nil {
		f.res = m.Reserve("join filter", false)
	}
	f.res.Free()
	f.held = 0
}

// add collects one build key.
func (f *JoinFilter) add(k int64) {
	if !f.seen {
		f.lo, f.hi, f.seen = k, k, true
	} else {
		f.lo, f.hi = min(f.lo, k), max(f.hi, k)
	}
	if !f.rangeOnly {
		f.keys.Push(k)
	}
}

// account reserves the keys collected so far; refused, the filter drops
// them and keeps the range alone.
func (f *JoinFilter) account() {
	if f.rangeOnly {
		return
	}
	size := 8 * int64(f.keys.N)
	if size-f.held < 64<<10 { // reserve by 64 KiB steps
		return
	}
	if f.res.Grow(size-f.held) != nil {
		f.keepRange()
		return
	}
	f.held = size
}

// keepRange drops the keys: the filter will test the range alone.
func (f *JoinFilter) keepRange() {
	f.rangeOnly = true
	f.keys = hashtab.BlockList[int64]{}
	f.res.Free()
	f.held = 0
}

// finish turns the collected keys into the range and membership test and
// publishes the filter.
func (f *JoinFilter) finish() {
	blocks, n := f.keys.Blocks, f.keys.N
	f.bitmap, f.bloom = nil, blockedBloom{}
	f.empty = !f.seen
	if f.empty || f.rangeOnly {
		f.keys = hashtab.BlockList[int64]{}
		f.ready.Store(true)
		return
	}
	width := uint64(f.hi) - uint64(f.lo) // fits: hi >= lo
	bloomBits := 64 * uint64(bloomWords(n))
	useBitmap := width < bitmapLimit || width/bitmapPerBloom < bloomBits
	test := int64(bloomBits / 8)
	if useBitmap {
		test = 8 * int64(width/64+1)
	}
	if f.res.Grow(test) != nil {
		f.keepRange()
		f.ready.Store(true)
		return
	}
	f.keys = hashtab.BlockList[int64]{}
	lo := f.lo
	if useBitmap {
		f.bitmap = make([]uint64, width/64+1)
		for _, b := range blocks {
			for _, k := range b {
				d := uint64(k) - uint64(lo)
				f.bitmap[d>>6] |= 1 << (d & 63)
			}
		}
	} else {
		f.bloom = newBlockedBloom(n)
		for _, b := range blocks {
			for _, k := range b {
				f.bloom.add(k)
			}
		}
	}
	// The keys are gone; the test stays reserved until the next build.
	f.res.Shrink(f.held)
	f.held = 0
	f.ready.Store(true)
}

// Ready reports whether the build side has filled the filter.
func (f *JoinFilter) Ready() bool { return f != nil && f.ready.Load() }

// Range returns the smallest and largest build key; ok is false when the
// build side has no key (no probe row can match) or the filter is not
// ready.
func (f *JoinFilter) Range() (lo, hi int64, ok bool) {
	if !f.Ready() || f.empty {
		return 0, 0, false
	}
	return f.lo, f.hi, true
}

// Empty reports whether the finished filter holds no key at all.
func (f *JoinFilter) Empty() bool { return f.Ready() && f.empty }

// MayContain reports whether key k may be a build key: always true for a
// build key, false for keys outside the range, and for others false
// unless the bloom filter gives a false positive. The filter must be ready.
func (f *JoinFilter) MayContain(k int64) bool {
	if f.empty || k < f.lo || k > f.hi {
		return false
	}
	if f.rangeOnly {
		return true
	}
	if f.bitmap != nil {
		d := uint64(k) - uint64(f.lo)
		return f.bitmap[d>>6]&(1<<(d&63)) != 0
	}
	return f.bloom.has(k)
}

// KeySet returns the membership test of the ready filter as a key set
// for an index.InSet predicate, and records that the scan under the probe
// side applies it: the filter's JoinFilterOps then pass rows through, and
// the rows the scan drops count in Dropped. Call it only when handing the
// predicate to a scan that declared it Exact.
func (f *JoinFilter) KeySet() *index.KeySet {
	f.inScan.Store(true)
	return &index.KeySet{Desc: f.Desc, Has: f.MayContain, Select: f.Select, Dropped: &f.Dropped}
}

// Select keeps the rows i of sel whose key vals[i] may be a build key
// (MayContain), in place; when dense, sel's rows are 0..len(sel)-1 and
// its contents are not read. A loop per membership test and shape, the
// test inlined: a scan calls it for every batch (index.KeySet.Select). The
// filter must be ready.
func (f *JoinFilter) Select(vals []int64, sel []int, dense bool) []int {
	if f.empty {
		return sel[:0]
	}
	if dense {
		vals = vals[:len(sel)]
	}
	lo, width := uint64(f.lo), uint64(f.hi)-uint64(f.lo)
	k := 0
	switch bm := f.bitmap; {
	case f.rangeOnly && dense:
		for i, x := range vals {
			sel[k] = i
			if uint64(x)-lo <= width {
				k++
			}
		}
	case f.rangeOnly:
		for _, i := range sel {
			sel[k] = i
			if uint64(vals[i])-lo <= width {
				k++
			}
		}
	case bm != nil && dense:
		for i, x := range vals {
			sel[k] = i
			if d := uint64(x) - lo; d <= width && bm[d>>6]&(1<<(d&63)) != 0 {
				k++
			}
		}
	case bm != nil:
		for _, i := range sel {
			sel[k] = i
			if d := uint64(vals[i]) - lo; d <= width && bm[d>>6]&(1<<(d&63)) != 0 {
				k++
			}
		}
	case dense:
		for i, x := range vals {
			sel[k] = i
			if uint64(x)-lo <= width && f.bloom.has(x) {
				k++
			}
		}
	default:
		for _, i := range sel {
			sel[k] = i
			if x := vals[i]; uint64(x)-lo <= width && f.bloom.has(x) {
				k++
			}
		}
	}
	return sel[:k]
}

// InScan reports whether the scan under the probe side applies the
// membership test (KeySet was called since the build started).
func (f *JoinFilter) InScan() bool { return f.inScan.Load() }

// Kind names the membership test, for EXPLAIN.
func (f *JoinFilter) Kind() string {
	switch {
	case !f.Ready():
		return ""
	case f.empty:
		return "empty"
	case f.rangeOnly:
		return "range"
	case f.bitmap != nil:
		return "bitmap"
	}
	return "bloom"
}

// String renders the filter for EXPLAIN ANALYZE once filled, e.g.
// "l_orderkey from orders (range [1,6000000], bloom; 123 rows dropped)",
// followed by " in scan" when the scan applies the test.
func (f *JoinFilter) String() string {
	if !f.Ready() {
		return f.Desc
	}
	where := ""
	if f.InScan() {
		where = " in scan"
	}
	if f.empty {
		return fmt.Sprintf("%s (empty; %d rows dropped)%s", f.Desc, f.Dropped.Load(), where)
	}
	return fmt.Sprintf("%s (range [%d,%d], %s; %d rows dropped)%s", f.Desc, f.lo, f.hi, f.Kind(), f.Dropped.Load(), where)
}

// blockedBloom is a register-blocked bloom filter: each key sets 4 bits in
// one 64-bit word chosen by its hash, so a test is one memory access. At
// 16 bits per key its false-positive rate is about 1%.
type blockedBloom struct {
	words []uint64
	shift uint // 64 - log2(len(words))
}

func newBlockedBloom(n int) blockedBloom {
	w := bloomWords(n)
	return blockedBloom{words: make([]uint64, w), shift: uint(64 - bits.Len(uint(w-1)))}
}

// bloomWords is the size of the bloom filter of n keys: 16 bits a key,
// rounded up to a power of two words.
func bloomWords(n int) int {
	w := max(1, (16*n+63)/64)
	return 1 << bits.Len(uint(w-1))
}

// slot returns the word and the mask of key k: one multiply by 2^64/φ
// (Fibonacci hashing), whose top bits pick the word and four 6-bit fields
// of bits 8-31 the bits in it. The product's bits above the low few mix
// every lower bit of the key, so keys in runs or on a stride (order keys)
// spread; a full mixer (murmur3's finalizer, two multiplies and three
// shifts in a chain) cost a probe 4x the time for no lower false-positive
// rate (TestBloomFalsePositives). Positions and word bits do not overlap
// while the filter has at most 2^32 words.
func (b *blockedBloom) slot(k int64) (int, uint64) {
	h := uint64(k) * 0x9e3779b97f4a7c15
	m := uint64(1)<<(h>>8&63) | uint64(1)<<(h>>14&63) | uint64(1)<<(h>>20&63) | uint64(1)<<(h>>26&63)
	return int(h >> b.shift), m // a shift by 64 (one word) gives 0
}

func (b *blockedBloom) add(k int64) {
	i, m := b.slot(k)
	b.words[i] |= m
}

func (b *blockedBloom) has(k int64) bool {
	i, m := b.slot(k)
	return b.words[i]&m == m
}

// collectKeys adds the non-NULL keys of the live rows of b (key vector v)
// to f.
func collectKeys(f *JoinFilter, v *columnar.Vector, b *columnar.Batch) {
	n := b.Live()
	if v.Const {
		if n > 0 && !v.IsNull(0) {
			f.add(v.Ints[0])
		}
		return
	}
	for k := range n {
		i := b.Row(k)
		if v.Valid == nil || v.Valid.Get(i) {
			f.add(v.Ints[i])
		}
	}
	f.account()
}
