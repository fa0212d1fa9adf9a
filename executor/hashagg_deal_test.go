package executor

import (
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// dealCounts deals keys (one BIGINT key column) to parts partitions and
// returns the rows each received.
func dealCounts(keys []int64, parts int) []int {
	types := []columnar.Type{columnar.TInt64}
	d := dealer{keys: []int{0}, parts: parts, types: types,
		stores: make([]*chunkedStore, parts), sizes: make([]int64, parts)}
	for lo := 0; lo < len(keys); lo += columnar.MaxBatch {
		hi := min(lo+columnar.MaxBatch, len(keys))
		b := columnar.NewBatch(types, hi-lo)
		b.Len = hi - lo
		copy(b.Cols[0].Ints, keys[lo:hi])
		d.deal(b)
	}
	counts := make([]int, parts)
	for p, s := range d.stores {
		if s != nil {
			counts[p] = s.n
		}
	}
	return counts
}

// Small keys (20 regions) must spread over the partitions: the hash's high
// bits, taken as they were, sent all 20 to 2 of 16 partitions.
func TestDealSpreadsSmallKeys(t *testing.T) {
	var keys []int64
	for v := range int64(20) {
		keys = append(keys, v)
	}
	counts := dealCounts(keys, 16)
	used := 0
	for _, c := range counts {
		if c > 0 {
			used++
		}
		if c > 4 {
			t.Errorf("a partition took %d of 20 keys: %v", c, counts)
		}
	}
	// 20 keys thrown at random into 16 partitions leave on average
	// 16·(15/16)^20 ≈ 4.6 empty; at most 8 used is a broken spread.
	if used < 9 {
		t.Errorf("20 keys used %d of 16 partitions: %v", used, counts)
	}
}

// Consecutive keys (ids, order keys) fill the partitions evenly.
func TestDealSpreadsConsecutiveKeys(t *testing.T) {
	const n, parts = 1 << 16, 16
	keys := make([]int64, n)
	for i := range keys {
		keys[i] = int64(i)
	}
	for p, c := range dealCounts(keys, parts) {
		if mean := n / parts; c < mean*9/10 || c > mean*11/10 {
			t.Errorf("partition %d took %d of %d keys (mean %d)", p, c, n, mean)
		}
	}
}

// The column loops hash as the row loop does, so that a key reaches one
// partition whether its batch has NULLs, a selection or neither: -0 and 0
// alike, every NaN alike.
func TestHashColumnLoopsAgree(t *testing.T) {
	ints := []int64{0, 1, -1, 7, 1 << 40, math.MinInt64, 3, 3}
	floats := []float64{0, math.Copysign(0, -1), math.NaN(), -math.NaN(), 1.5, -2, math.Inf(1), 1.5}
	check := func(name string, typ columnar.Type, fill func(v *columnar.Vector)) {
		t.Helper()
		n := len(ints)
		for _, sel := range [][]int{nil, {1, 2, 5, 7}} {
			b := columnar.NewBatch([]columnar.Type{typ}, n)
			b.Len, b.Sel = n, sel
			fill(b.Cols[0])
			col := make([]uint64, n)
			row := make([]uint64, n)
			var d dealer
			d.hashColumn(b, b.Cols[0], col) // plain: the column loop
			b.Cols[0].Valid = columnar.NewBitmap(n)
			d.hashColumn(b, b.Cols[0], row) // a bitmap, all valid: the row loop
			b.ForEach(func(i int) {
				if col[i] != row[i] {
					t.Errorf("%s sel=%v row %d: column loop %x, row loop %x", name, sel, i, col[i], row[i])
				}
			})
		}
	}
	check("BIGINT", columnar.TInt64, func(v *columnar.Vector) { copy(v.Ints, ints) })
	check("DOUBLE", columnar.TFloat64, func(v *columnar.Vector) { copy(v.Floats, floats) })
	// Equal SQL values, equal hashes.
	b := columnar.NewBatch([]columnar.Type{columnar.TFloat64}, len(floats))
	b.Len = len(floats)
	copy(b.Cols[0].Floats, floats)
	h := make([]uint64, len(floats))
	var d dealer
	d.hashColumn(b, b.Cols[0], h)
	if h[0] != h[1] || h[2] != h[3] || h[4] != h[7] {
		t.Errorf("0/-0, NaN/-NaN or 1.5/1.5 hash apart: %x", h)
	}
	if h[0] == h[4] || h[2] == h[5] {
		t.Errorf("different values hash alike: %x", h)
	}
}

// partitionOf covers every partition and stays below parts.
func TestPartitionOfRange(t *testing.T) {
	seen := make([]bool, 7)
	for x := uint64(0); x < 1000; x++ {
		p := partitionOf(x*0x9e3779b97f4a7c15, 7)
		if p < 0 || p >= 7 {
			t.Fatalf("partitionOf gave %d of 7", p)
		}
		seen[p] = true
	}
	for p, ok := range seen {
		if !ok {
			t.Errorf("partition %d never chosen", p)
		}
	}
	if p := partitionOf(math.MaxUint64, 16); p >= 16 {
		t.Errorf("partitionOf(max) = %d", p)
	}
}
