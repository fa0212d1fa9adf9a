package hashtab

import (
	"fmt"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// Few distinct values in the first batch keep the composite path (its
// small direct table, cheap interning).
func TestChooseLeadNeedsManyGroups(t *testing.T) {
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TVarchar}, 1000)
	b.Len = 1000
	for i := 0; i < 1000; i++ {
		b.Cols[0].Ints[i] = int64(i % 100)
		b.Cols[1].Bytes[i] = []byte("x")
	}
	if got := chooseLead(b, b.Cols); got != -1 {
		t.Fatalf("chooseLead with 100 distinct ids = %d, want -1", got)
	}
	for i := 0; i < 1000; i++ {
		b.Cols[0].Ints[i] = int64(i)
	}
	if got := chooseLead(b, b.Cols); got != 0 {
		t.Fatalf("chooseLead with 1000 distinct ids = %d, want 0", got)
	}
}

// TestChooseLeadContradicted: 2000 rows of 1000 ids, each id twice. With
// the string equal for both rows of an id the id leads; with one id's
// second row of another string (as Q16's suppkeys repeat over parts) the
// first batch contradicts it and there is no lead; a NULL string is equal
// only to NULL.
func TestChooseLeadContradicted(t *testing.T) {
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TVarchar}, 2000)
	b.Len = 2000
	for i := 0; i < 2000; i++ {
		b.Cols[0].Ints[i] = int64(i % 1000)
		b.Cols[1].Bytes[i] = []byte(fmt.Sprintf("name %d", i%1000))
	}
	if got := chooseLead(b, b.Cols); got != 0 {
		t.Fatalf("consistent ids: chooseLead = %d, want 0", got)
	}
	b.Cols[1].Bytes[1500] = []byte("another name")
	if got := chooseLead(b, b.Cols); got != -1 {
		t.Fatalf("id 500 with two names: chooseLead = %d, want -1", got)
	}
	b.Cols[1].Bytes[1500] = []byte("name 500")
	b.Cols[1].SetNull(1700, 2000)
	if got := chooseLead(b, b.Cols); got != -1 {
		t.Fatalf("id 700 with a name and a NULL: chooseLead = %d, want -1", got)
	}
	b.Cols[1].SetNull(700, 2000)
	if got := chooseLead(b, b.Cols); got != 0 {
		t.Fatalf("id 700 NULL twice: chooseLead = %d, want 0", got)
	}
}

// TestIntMapDensePages: keys past one 64Ki page of the direct table, some
// first seen while out of its range (so first in the hash table), are
// indexed by the pages, and every key keeps its id.
func TestIntMapDensePages(t *testing.T) {
	m := newIntMap(columnar.TInt64)
	var keys []int64
	keys = append(keys, 150000, 70000, 5<<40, -7)
	for k := int64(0); k < 100000; k++ {
		keys = append(keys, k)
	}
	keys = append(keys, 70000, 150000, -7)
	v := &columnar.Vector{Type: columnar.TInt64, Ints: keys}
	gids := make([]int32, len(keys))
	m.Assign(&columnar.Batch{Len: len(keys)}, []*columnar.Vector{v}, gids)
	if m.Len() != 100003 {
		t.Fatalf("%d ids, want 100003", m.Len())
	}
	// 150000, 70000, 5<<40, -7 are ids 0..3; key k < 100000 other than
	// 70000 is id 4+k (70000 is id 1, so keys above it are one less).
	want := map[int64]int32{150000: 0, 70000: 1, 5 << 40: 2, -7: 3, 0: 4, 69999: 4 + 69999, 70001: 4 + 70000, 99999: 4 + 99998}
	for i, k := range keys {
		if w, ok := want[k]; ok && gids[i] != w {
			t.Fatalf("key %d: id %d, want %d", k, gids[i], w)
		}
	}
	if m.ig.dense.n <= densePage {
		t.Fatalf("direct table covers %d keys, want more than a page", m.ig.dense.n)
	}
}

// BenchmarkTwoIntKeys: rows/s of GROUP BY (a, b) over BIGINTs with
// 64K groups, the shape of TPC-H Q20's (l_partkey, l_suppkey), through the
// word-keyed table and, for comparison, the encoded-key Go map it replaced
// (still used past 63 keys).
func BenchmarkTwoIntKeys(b *testing.B) {
	const n = 1 << 20
	a, c := make([]int64, n), make([]int64, n)
	for i := range a {
		g := int64(i*7919) % (1 << 16)
		a[i], c[i] = g/4, g%97
	}
	types := []columnar.Type{columnar.TInt64, columnar.TInt64}
	for _, table := range []string{"words", "encoded"} {
		b.Run("table="+table, func(b *testing.B) {
			keys := []*columnar.Vector{{Type: columnar.TInt64}, {Type: columnar.TInt64}}
			b.ReportAllocs()
			for b.Loop() {
				var m Map = newCompositeKeys(types)
				if table == "encoded" {
					m = newEncodedMap(types)
				}
				gids := make([]int32, columnar.MaxBatch)
				for off := 0; off < n; off += columnar.MaxBatch {
					keys[0].Ints, keys[1].Ints = a[off:off+columnar.MaxBatch], c[off:off+columnar.MaxBatch]
					m.Assign(&columnar.Batch{Len: columnar.MaxBatch}, keys, gids)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkIntKey: rows/s of GROUP BY one BIGINT with 1M distinct
// keys spread past the direct table (TPC-H Q18's l_orderkey, which runs to
// 6M): each key seen 4 times.
func BenchmarkIntKey(b *testing.B) {
	const groups = 1 << 20
	vals := make([]int64, 4*groups)
	for i := range vals {
		vals[i] = int64(i%groups) * 6
	}
	keys := []*columnar.Vector{{Type: columnar.TInt64}}
	b.ReportAllocs()
	for b.Loop() {
		m := newIntMap(columnar.TInt64)
		gids := make([]int32, columnar.MaxBatch)
		for off := 0; off < len(vals); off += columnar.MaxBatch {
			keys[0].Ints = vals[off : off+columnar.MaxBatch]
			m.Assign(&columnar.Batch{Len: columnar.MaxBatch}, keys, gids)
		}
	}
	b.ReportMetric(float64(b.N*len(vals))/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkLeadKey: rows/s of GROUP BY (id, name, address) over 1M
// rows in 256K groups (each id's four rows share its strings, as a join
// repeats a customer's), by the lead key and, for comparison, by the
// composite table interning both strings.
func BenchmarkLeadKey(b *testing.B) {
	const n, groups = 1 << 20, 1 << 18
	ids := make([]int64, n)
	names, addrs := make([][]byte, n), make([][]byte, n)
	byID := make([][2][]byte, groups)
	for g := range byID {
		byID[g] = [2][]byte{[]byte(fmt.Sprintf("Customer#%09d", g)), []byte(fmt.Sprintf("%d Long Street Name, Some City %06d", g, g))}
	}
	for i := range ids {
		g := (i * 7919) % groups
		ids[i], names[i], addrs[i] = int64(g), byID[g][0], byID[g][1]
	}
	types := []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TVarchar}
	for _, mode := range []string{"lead", "composite"} {
		b.Run("keys="+mode, func(b *testing.B) {
			keys := []*columnar.Vector{{Type: types[0]}, {Type: types[1]}, {Type: types[2]}}
			b.ReportAllocs()
			for b.Loop() {
				c := newCompositeKeys(types)
				if mode == "composite" {
					c.decided = true // no lead key
				}
				gids := make([]int32, columnar.MaxBatch)
				for off := 0; off < n; off += columnar.MaxBatch {
					end := off + columnar.MaxBatch
					keys[0].Ints, keys[1].Bytes, keys[2].Bytes = ids[off:end], names[off:end], addrs[off:end]
					c.Assign(&columnar.Batch{Len: columnar.MaxBatch}, keys, gids)
				}
				if (c.lead != nil) != (mode == "lead") {
					b.Fatalf("lead mode = %v", c.lead != nil)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
