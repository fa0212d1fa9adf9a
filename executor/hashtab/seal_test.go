package hashtab

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// Sealing an integer Map frees its id tables and keeps its keys: Len and
// Keys answer as before, in id order, the NULL key included.
func TestSealKeepsKeys(t *testing.T) {
	m := New([]columnar.Type{columnar.TInt64})
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64}, 3000)
	b.Len = 3000
	v := b.Cols[0]
	v.Valid = columnar.NewBitmap(3000)
	for i := range 3000 {
		// Keys over a wide range (the hash table) and small ones (the
		// direct table); every 7th row NULL.
		v.Ints[i] = int64(i%1000) * int64(1+i%2*1_000_000_007)
		v.Valid.SetTo(i, i%7 != 3) // NewBitmap starts all valid
	}
	gids := make([]int32, 3000)
	m.Assign(b, b.Cols, gids)
	n := m.Len()
	out := []*columnar.Vector{columnar.NewVector(columnar.TInt64, 0)}
	m.Keys(out, 0, n)
	want := columnar.NewVector(columnar.TInt64, 0)
	m.Keys([]*columnar.Vector{want}, 0, n)
	before := m.Bytes()
	Seal(m)
	if m.Len() != n {
		t.Fatalf("Len %d after Seal, %d before", m.Len(), n)
	}
	if after := m.Bytes(); after >= before {
		t.Errorf("Bytes %d after Seal, %d before: nothing freed", after, before)
	}
	m.Keys(out, 0, n)
	for g := range n {
		if out[0].IsNull(g) != want.IsNull(g) || !out[0].IsNull(g) && out[0].Ints[g] != want.Ints[g] {
			t.Fatalf("id %d: key %v after Seal, %v before", g, out[0].Value(g), want.Value(g))
		}
	}
	// Independently: the non-NULL ids hold the distinct keys in the order
	// of their first rows, and one id holds NULL.
	var first []int64
	seen := map[int64]bool{}
	for i := range 3000 {
		if k := v.Ints[i]; i%7 != 3 && !seen[k] {
			seen[k] = true
			first = append(first, k)
		}
	}
	var got []int64
	nulls := 0
	for g := range n {
		if out[0].IsNull(g) {
			nulls++
			continue
		}
		got = append(got, out[0].Ints[g])
	}
	if nulls != 1 || len(got) != len(first) {
		t.Fatalf("%d NULL ids and %d keys, want 1 and %d", nulls, len(got), len(first))
	}
	for i := range got {
		if got[i] != first[i] {
			t.Fatalf("key %d is %d, want %d", i, got[i], first[i])
		}
	}
}
