package hashtab

import (
	"fmt"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// Reserving keeps the keys a string Map holds, and the keys that come
// after fit without the table doubling.
func TestReserveStrings(t *testing.T) {
	types := []columnar.Type{columnar.TVarchar}
	m := New(types)
	batch := func(from, to int) *columnar.Batch {
		b := columnar.NewBatch(types, to-from)
		b.Len = to - from
		for i := from; i < to; i++ {
			// short keys in the slot, long ones in the arena
			b.Cols[0].Bytes[i-from] = []byte(fmt.Sprintf("key-%d%s", i, map[bool]string{true: "-with-a-tail-past-16-bytes"}[i%3 == 0]))
		}
		return b
	}
	gids := make([]int32, 1000)
	m.Assign(batch(0, 1000), batch(0, 1000).Cols, gids)
	Reserve(m, 20_000)
	slots := len(m.(*strMap).tab.slots)
	if want := strSlotsFor(20_000); slots != want {
		t.Fatalf("reserved %d slots, want %d", slots, want)
	}
	for lo := 0; lo < 20_000; lo += 1000 {
		b := batch(lo, lo+1000)
		m.Assign(b, b.Cols, gids)
		for i, g := range gids {
			if int(g) != lo+i {
				t.Fatalf("key %d got id %d", lo+i, g)
			}
		}
	}
	if got := len(m.(*strMap).tab.slots); got != slots {
		t.Errorf("the table grew from %d to %d slots after reserving", slots, got)
	}
	if m.Len() != 20_000 {
		t.Errorf("%d ids for 20000 keys", m.Len())
	}
	out := []*columnar.Vector{columnar.NewVector(columnar.TVarchar, 0)}
	m.Keys(out, 999, 1001)
	if string(out[0].Bytes[0]) != "key-999-with-a-tail-past-16-bytes" || string(out[0].Bytes[1]) != "key-1000" {
		t.Errorf("keys 999, 1000 read back as %q, %q", out[0].Bytes[0], out[0].Bytes[1])
	}
	if ReserveBytes(m, 20_000) != 0 {
		t.Errorf("reserving what is there allocates %d bytes", ReserveBytes(m, 20_000))
	}
	// Other kinds take no reservation.
	if ReserveBytes(New([]columnar.Type{columnar.TInt64}), 20_000) != 0 {
		t.Errorf("an integer Map reports a reservation")
	}
}
