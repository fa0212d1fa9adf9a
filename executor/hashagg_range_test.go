package executor

import (
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
)

// intBatch is a batch of one BIGINT column holding vals, NULL where null
// says (null may be nil).
func intBatch(vals []int64, null []bool) *columnar.Batch {
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64}, len(vals))
	b.Len = len(vals)
	copy(b.Cols[0].Ints, vals)
	for i := range null {
		if null[i] {
			b.Cols[0].SetNull(i, len(vals))
		}
	}
	return b
}

// decide takes a range only for a wide, even spread of keys, and widens
// it by the sample's average gap on each side.
func TestDealRangeDecide(t *testing.T) {
	spread := func(n int, lo, step int64) []int64 {
		v := make([]int64, n)
		for i := range v {
			v[(i*7)%n] = lo + int64(i)*step // every step-th key, shuffled
		}
		return v
	}
	skewed := spread(1024, 0, 1000)
	for i := range 600 {
		skewed[i] = int64(i) // most keys in the first piece
	}
	nulls := make([]bool, 1024)
	for i := range nulls {
		nulls[i] = i%8 != 0 // 128 keys left
	}
	outliers := spread(1024, 1_000_000, 1000)
	outliers[3], outliers[500], outliers[900] = math.MinInt64, -1, math.MaxInt64
	cases := []struct {
		name string
		vals []int64
		null []bool
		on   bool
	}{
		{"wide and even", spread(1024, 1_000_000, 1000), nil, true},
		{"negative keys", spread(1024, -2_000_000, 1000), nil, true},
		{"narrow (clustered input)", spread(1024, 1, 4), nil, false},
		{"skewed", skewed, nil, false},
		{"too few keys", spread(100, 0, 10_000), nil, false},
		{"mostly NULL: too few keys left", spread(1024, 0, 1000), nulls, false},
		{"a few outliers", outliers, nil, true},
		{"span overflows", append(slices.Repeat([]int64{math.MinInt64}, 200), slices.Repeat([]int64{math.MaxInt64}, 200)...), nil, false},
		{"pieces past a direct table", spread(1024, 0, 1<<40), nil, false},
	}
	for _, c := range cases {
		var r dealRange
		b := intBatch(c.vals, c.null)
		r.decide(b, b.Cols[0], 16)
		if r.on != c.on {
			t.Errorf("%s: on = %v, want %v", c.name, r.on, c.on)
		}
	}
	var r dealRange
	b := intBatch(spread(1024, 1_000_000, 1000), nil)
	r.decide(b, b.Cols[0], 16)
	// Less the 16 lowest and highest keys (1/64th): min 1_016_000, max
	// 2_007_000, gap 991_000/992 = 998 on each side.
	if r.lo != 1_016_000-998 || r.width != 991_000+2*998+1 {
		t.Errorf("range [%d, +%d), want [%d, +%d)", r.lo, r.width, 1_016_000-998, 991_000+2*998+1)
	}
	// 992_997 keys over 16 partitions: 62_062.3 a piece, rounded up to a
	// power of two, 1<<16; partition 15's piece is what is left.
	if lo, hi, ok := r.keys(15); !ok || r.shift != 16 || lo != r.lo+15<<16 || hi != r.lo+int64(r.width)-1 {
		t.Errorf("piece 15 = [%d, %d] %v (shift %d)", lo, hi, ok, r.shift)
	}
	if _, _, ok := r.keys(16); ok {
		t.Errorf("a 17th piece of a range that 16 cover")
	}
}

// The dealer sends a key of the range to the partition of its piece, and
// any other key (outside the range, NULL) to the partition of its hash,
// the same whichever batch brings it.
func TestDealByRange(t *testing.T) {
	const parts = 16
	rng := &dealRange{}
	d := dealer{keys: []int{0}, parts: parts, seed: maphash.MakeSeed(), types: []columnar.Type{columnar.TInt64}, rng: rng}
	d.stores, d.sizes = make([]*chunkedStore, parts), make([]int64, parts)
	first := make([]int64, 2048)
	for i := range first {
		first[i] = int64((i*7919)%2048) * 500 // keys 0..1_023_500, even
	}
	d.deal(intBatch(first, nil))
	if !rng.on {
		t.Fatal("an even spread of 2048 keys over a million was not dealt by range")
	}
	odd := []int64{-1, -1_000_000, math.MinInt64, math.MaxInt64, 5_000_000, 0}
	null := []bool{false, false, false, false, false, true}
	for range 2 {
		d.deal(intBatch(odd, null))
	}
	seen := map[string]int{} // key (or "NULL") → its partition
	for p, st := range d.stores {
		if st == nil {
			continue
		}
		v := columnar.NewVector(columnar.TInt64, 0)
		st.copyRange(v, 0, 0, st.n)
		for i := range st.n {
			key := "NULL"
			if !v.IsNull(i) {
				key = fmt.Sprint(v.Ints[i])
				if x := v.Ints[i]; uint64(x-rng.lo) < rng.width {
					if lo, hi, _ := rng.keys(p); x < lo || x > hi {
						t.Errorf("key %d of the range went to partition %d, whose piece is [%d, %d]", x, p, lo, hi)
					}
				}
			}
			if q, ok := seen[key]; ok && q != p {
				t.Errorf("key %s went to partitions %d and %d", key, q, p)
			}
			seen[key] = p
		}
	}
	if len(seen) != len(first)+len(odd) {
		t.Errorf("%d distinct keys dealt, want %d", len(seen), len(first)+len(odd))
	}
}

// TestPartitionMergeByRange: SELECT k, count(*), sum(v), min(v) GROUP BY k
// over 300000 rows with NULLs, negative keys and keys far past the others
// among them, the other keys either spread evenly over [1_000_000,
// 1_600_000) (each three times) or clustered (four rows a key, in key
// order, as lineitem holds l_orderkey: the first batch each partial emits
// spans a few keys, its table's keys all of them). The merge deals by
// range (but for clustered keys under the limit), and every group's count,
// sum and min equal a Go map's over the same rows, with and without a
// memory limit that makes the exchange and the finals spill.
func TestPartitionMergeByRange(t *testing.T) {
	const n = 300_000
	layouts := map[string]func(i int) int64{
		"spread":    func(i int) int64 { return 1_000_000 + 6*int64((i*7919)%100_000) },
		"clustered": func(i int) int64 { return 1_000_000 + 8*int64(i/4) },
	}
	for name, key := range layouts {
		rows := make([][]columnar.Value, n)
		type agg struct{ count, sum, min int64 }
		want := map[string]*agg{}
		for i := range rows {
			var k columnar.Value
			switch {
			case i%1009 == 0:
				k = columnar.NullValue(columnar.TInt64)
			case i%1013 == 0:
				k = i64(-int64(i % 7))
			case i%1019 == 0:
				k = i64(math.MaxInt64 - int64(i%5))
			default:
				k = i64(key(i))
			}
			rows[i] = []columnar.Value{k, i64(int64(i))}
			key := "NULL"
			if !k.Null {
				key = fmt.Sprint(k.I)
			}
			a := want[key]
			if a == nil {
				a = &agg{min: math.MaxInt64}
				want[key] = a
			}
			a.count++
			a.sum += int64(i)
			a.min = min(a.min, int64(i))
		}
		var wantRows []string
		for k, a := range want {
			wantRows = append(wantRows, fmt.Sprintf("%s|%d|%d|%d", k, a.count, a.sum, a.min))
		}
		slices.Sort(wantRows)
		for _, limit := range []int64{0, 4 << 20} {
			t.Run(fmt.Sprintf("%s/limit=%d", name, limit), func(t *testing.T) {
				pm := intMergePlan(rows, 2, 16)
				tmp := t.TempDir()
				mm := memory.NewManager(limit, tmp, 0)
				if limit == 0 {
					mm = nil
				}
				pm.SetMemory(mm)
				for _, p := range pm.Partials {
					p.(*HashAgg).SetMemory(mm)
				}
				for _, f := range pm.Finals {
					f.(*HashAgg).SetMemory(mm)
				}
				got := drain(t, pm)
				slices.Sort(got)
				if !equalStrings(got, wantRows) {
					t.Fatalf("got %d rows %v…, want %d rows %v…", len(got), got[:min(3, len(got))], len(wantRows), wantRows[:3])
				}
				// Under the limit a clustered partial spills its table, whose
				// keys left in memory are the first few: dealt by hash then.
				if r := pm.Sources[0].rng; (r == nil || !r.on) && (name == "spread" || limit == 0) {
					t.Errorf("the keys were not dealt by range")
				}
				checkSpilledClean(t, mm, tmp)
			})
		}
	}
}

// intMergePlan is the two-phase plan of SELECT k, count(*), sum(v), min(v)
// FROM rows GROUP BY k (k, v BIGINT), rows dealt round-robin to workers
// partials, merged in parts partitions.
func intMergePlan(rows [][]columnar.Value, workers, parts int) *PartitionMerge {
	return mergePlanOf([]columnar.Type{columnar.TInt64, columnar.TInt64}, rows, columnar.MaxBatch, workers, parts, true)
}
