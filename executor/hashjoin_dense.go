package executor

// Dense join keys: when the build keys of a one-key join span a range not
// much wider than the number of build rows (TPC-H's keys: c_custkey
// 1..150000, p_partkey, s_suppkey, n_nationkey), the table is an array
// indexed by key - min holding where each key's rows start in rows: a
// probe reads two adjacent int32 (one cache line) instead of walking
// 16-byte slots, and the array is a quarter of the slots' size (TPC-H
// Q13's 150K customers: 600 KB instead of 8 MB), so it stays in cache.

// denseSpan is how many array entries per build row a dense table may
// take at most: 4 int32 entries weigh 16 bytes, one slot of the hash table.
const denseSpan = 4

// finishDense builds the dense table when the inserted keys qualify,
// grouping the rows by key in insertion order, and reports whether it did.
func (t *intTable) finishDense() bool {
	n := len(t.keys)
	if n == 0 {
		return false
	}
	lo, hi := t.keys[0], t.keys[0]
	for _, k := range t.keys {
		lo, hi = min(lo, k), max(hi, k)
	}
	// The span as unsigned: correct even when hi - lo overflows int64.
	span := uint64(hi) - uint64(lo)
	if span >= uint64(denseSpan*n) {
		return false
	}
	// start[o+1] counts key lo+o; the prefix sums then give each key's
	// first position, and placing the rows advances start[o] to the next
	// key's first position, so start shifted by one is the index.
	start := make([]int32, span+2)
	for _, k := range t.keys {
		start[uint64(k)-uint64(lo)+1]++
	}
	for o := 1; o < len(start); o++ {
		start[o] += start[o-1]
	}
	t.rows = make([]int32, n)
	for i, k := range t.keys {
		o := uint64(k) - uint64(lo)
		t.rows[start[o]] = t.ins[i]
		start[o]++
	}
	copy(start[1:], start[:len(start)-1])
	start[0] = 0
	t.lo, t.dense = lo, start
	t.keys, t.ins = nil, nil
	return true
}
