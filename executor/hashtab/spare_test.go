package hashtab

import (
	"fmt"
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// strKeys assigns keys "p-0" … "p-(n-1)", each twice, in batches, and
// returns the ids of the second round.
func strKeys(m Map, p string, n int) []int32 {
	var ids []int32
	for round := range 2 {
		for lo := 0; lo < n; lo += columnar.MaxBatch {
			hi := min(lo+columnar.MaxBatch, n)
			v := columnar.NewVector(columnar.TVarchar, hi-lo)
			for i := lo; i < hi; i++ {
				v.Bytes[i-lo] = fmt.Appendf(nil, "%s-%d", p, i)
			}
			g := make([]int32, hi-lo)
			m.Assign(&columnar.Batch{Len: hi - lo}, []*columnar.Vector{v}, g)
			if round == 1 {
				ids = append(ids, g...)
			}
		}
	}
	return ids
}

// A released table's arrays go to the next table reserved for as many
// keys, cleared: its keys are numbered afresh, none of the first table's
// found. A table of another size, or one given keys already, makes its own.
func TestSpare(t *testing.T) {
	const n = 60000 // 128K slots of 16 bytes: above touchFrom
	var spare Spare
	vt := []columnar.Type{columnar.TVarchar}
	first := New(vt)
	Reserve(first, Expect{Keys: n, Spare: &spare})
	strKeys(first, "a", n)
	slots := first.(*strMap).tab.slots
	Release(first, &spare)
	Release(New([]columnar.Type{columnar.TInt64}), &spare) // not a string Map: nothing
	if len(spare.tables) != 1 {
		t.Fatalf("%d spare tables, want 1", len(spare.tables))
	}

	other := New(vt) // another size: not taken
	Reserve(other, Expect{Keys: 4 * n, Spare: &spare})
	started := New(vt) // keys given before: not taken
	strKeys(started, "c", 10)
	Reserve(started, Expect{Keys: n, Spare: &spare})
	if len(spare.tables) != 1 {
		t.Fatalf("spare taken by a table of another size or with keys")
	}

	second := New(vt)
	Reserve(second, Expect{Keys: n, Spare: &spare})
	tab := second.(*strMap).tab
	if len(spare.tables) != 0 || &tab.slots[0] != &slots[0] || cap(tab.refs) < n {
		t.Fatalf("the reserved table did not take the spare arrays")
	}
	ids := strKeys(second, "b", n)
	want := make([]int32, n)
	for i := range want {
		want[i] = int32(i)
	}
	if !slices.Equal(ids, want) || second.Len() != n {
		t.Fatalf("ids over spare arrays: %d keys, first ids %v", second.Len(), ids[:5])
	}
	probe := columnar.NewVector(columnar.TVarchar, 2)
	probe.Bytes[0], probe.Bytes[1] = []byte("a-7"), []byte("b-7")
	g := make([]int32, 2)
	second.Find(&columnar.Batch{Len: 2}, []*columnar.Vector{probe}, g)
	if g[0] != -1 || g[1] != 7 {
		t.Fatalf("Find a-7, b-7 = %v, want [-1 7]", g)
	}
}
