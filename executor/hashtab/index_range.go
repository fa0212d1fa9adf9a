package hashtab

import "github.com/b2sql/b2sql/columnar"

// Range tables: when the build keys of a one-key join are spread over
// their range, the table is an array of buckets indexed by (key - min) >>
// shift, each holding where its rows start in rows (grouped by bucket, in
// insertion order within a key), laid out by a counting sort instead of
// hashing every key into slots.
//
// Dense keys (shift 0: the keys span a range not much wider than the
// number of build rows, as TPC-H's c_custkey 1..150000, p_partkey,
// s_suppkey, n_nationkey do) need no key comparison: a probe reads two
// adjacent int32 (one cache line) instead of walking 16-byte slots, and
// the array is a quarter of the slots' size (TPC-H Q13's 150K customers:
// 600 KB instead of 8 MB), so it stays in cache.
//
// Sparser keys (TPC-H's o_orderkey, a quarter of 1..6M; partsupp's packed
// (partkey, suppkey) pairs) share buckets, about one row per bucket: a
// bucket holds its rows next to the low bits of their keys (the bucket
// implies the others), 8 bytes a row, and a probe compares the few keys
// of its bucket, in insertion order. Buckets and entries weigh about 16
// bytes per row where the slots weighed 32 to 64 and the rows 4 more
// (TPC-H Q9's 800K partsupp rows: 13 MB instead of 35 MB), and building
// them is a pass over the keys with no probing (Q9 spent 19% of its CPU
// inserting into slots). Keys bunched in a few buckets (a sum of squared
// bucket sizes over rangeCost per row), or so sparse that a bucket spans
// more than 2^32 keys, are hashed instead.

// denseSpan is how many array entries per build row a dense table may
// take at most: 4 int32 entries weigh 16 bytes, one slot of the hash table.
const denseSpan = 4

// rangeSpan is the most buckets per build row a shifted table has: with
// two, rows spread evenly share a bucket with about one other row at most.
const rangeSpan = 2

// rangeCost bounds the sum of squared bucket sizes, per row, of a shifted
// table: the comparisons of a probe.
const rangeCost = 8

// rangeEntry is a build row of a shifted range table with the low 32 bits
// of its key - lo: with shift <= 32 they and the bucket (the bits from
// shift on) tell the key.
type rangeEntry struct {
	low uint32
	row int32
}

// finishRange builds the range table when the inserted keys qualify,
// grouping the rows by key in insertion order, and reports whether it did.
func (t *intTable) finishRange() bool {
	n := t.kb.N
	if n == 0 {
		return false
	}
	lo, hi := t.kb.Blocks[0][0], t.kb.Blocks[0][0]
	for _, blk := range t.kb.Blocks {
		for _, k := range blk {
			lo, hi = min(lo, k), max(hi, k)
		}
	}
	// The span as unsigned: correct even when hi - lo overflows int64.
	span := uint64(hi) - uint64(lo)
	shift := uint(0)
	if span >= uint64(denseSpan*n) {
		for span>>shift >= uint64(rangeSpan*n) {
			shift++
		}
	}
	if shift > 32 {
		return false // rangeEntry.low holds 32 bits
	}
	// start[o+1] counts bucket o; the prefix sums then give each bucket's
	// first position, and placing the rows advances start[o] to the next
	// bucket's first position, so start shifted by one is the index.
	start := make([]int32, span>>shift+2)
	for _, blk := range t.kb.Blocks {
		for _, k := range blk {
			start[(uint64(k)-uint64(lo))>>shift+1]++
		}
	}
	if shift > 0 && !spreadEnough(start, n) {
		return false
	}
	for _, c := range start {
		t.maxRun = max(t.maxRun, c)
	}
	for o := 1; o < len(start); o++ {
		start[o] += start[o-1]
	}
	if shift == 0 {
		t.rows = make([]int32, n)
	} else {
		t.ents = make([]rangeEntry, n)
	}
	for b, blk := range t.kb.Blocks {
		ins := t.ib.Blocks[b]
		for i, k := range blk {
			d := uint64(k) - uint64(lo)
			o := d >> shift
			p := start[o]
			if shift == 0 {
				t.rows[p] = ins[i]
			} else {
				t.ents[p] = rangeEntry{low: uint32(d), row: ins[i]}
			}
			start[o]++
		}
	}
	copy(start[1:], start[:len(start)-1])
	start[0] = 0
	t.lo, t.dense, t.rshift = lo, start, shift
	return true
}

// spreadEnough reports whether bucket sizes (counts[o+1] rows in bucket
// o) keep the sum of their squares within rangeCost per row.
func spreadEnough(counts []int32, n int) bool {
	limit, cost := rangeCost*n, 0
	for _, c := range counts {
		cost += int(c) * int(c)
		if cost > limit {
			return false
		}
	}
	return true
}

// probeRange is probeInts' loop over non-Const keys on a range table,
// one loop per kind of table (no per-row branch on it). Rows go by blocks
// of probeBlock in two passes: the first only reads each row's bucket
// bounds, independent loads whose cache misses the processor overlaps
// (a build larger than the cache misses on most probes), the second
// reads the buckets' rows.
func (t *intTable) probeRange(v *columnar.Vector, rows []int, lnull []bool, pairL, pairR []int32) ([]int32, []int32) {
	var bounds [probeBlock]uint64 // from<<32 | to
	var lows [probeBlock]uint32   // shifted tables: the key's low bits
	for start := 0; start < len(rows); start += probeBlock {
		blk := rows[start:min(start+probeBlock, len(rows))]
		t.bucketBounds(v, blk, lnull[start:], bounds[:len(blk)], lows[:len(blk)])
		if t.rshift == 0 {
			for j := range blk {
				k := int32(start + j)
				for _, r := range t.rows[bounds[j]>>32 : uint32(bounds[j])] {
					pairL = append(pairL, k)
					pairR = append(pairR, r)
				}
			}
			continue
		}
		for j := range blk {
			k := int32(start + j)
			for _, e := range t.ents[bounds[j]>>32 : uint32(bounds[j])] {
				if e.low == lows[j] {
					pairL = append(pairL, k)
					pairR = append(pairR, e.row)
				}
			}
		}
	}
	return pairL, pairR
}

// probeBlock rows are probed per pass (their bounds live on the stack).
const probeBlock = 256

// bucketBounds sets bounds[j] to the bucket bounds of row rows[j]'s key
// (empty for a key outside the table or NULL, marked in lnull[j]) and
// lows[j] to its low bits.
func (t *intTable) bucketBounds(v *columnar.Vector, rows []int, lnull []bool, bounds []uint64, lows []uint32) {
	vals, dense, lo, shift := v.Ints, t.dense, uint64(t.lo), t.rshift&63
	last := uint64(len(dense) - 1)
	lows = lows[:len(rows)]
	bounds = bounds[:len(rows)]
	for j, i := range rows {
		d := uint64(vals[i]) - lo
		o := d >> shift
		lows[j] = uint32(d)
		if o >= last {
			bounds[j] = 0
			continue
		}
		bounds[j] = uint64(dense[o])<<32 | uint64(dense[o+1])
	}
	if v.Valid == nil {
		return
	}
	for j, i := range rows {
		if !v.Valid.Get(i) {
			lnull[j] = true
			bounds[j] = 0
		}
	}
}

// appendRange appends the pair (l, r) for each build row r with key k, in
// build order, on a range table.
func (t *intTable) appendRange(k int64, l int32, pairL, pairR []int32) ([]int32, []int32) {
	d := uint64(k) - uint64(t.lo)
	o := d >> t.rshift
	if o >= uint64(len(t.dense)-1) {
		return pairL, pairR
	}
	from, to := t.dense[o], t.dense[o+1]
	if t.rshift == 0 {
		for _, r := range t.rows[from:to] {
			pairL = append(pairL, l)
			pairR = append(pairR, r)
		}
		return pairL, pairR
	}
	for _, e := range t.ents[from:to] {
		if e.low == uint32(d) {
			pairL = append(pairL, l)
			pairR = append(pairR, e.row)
		}
	}
	return pairL, pairR
}
