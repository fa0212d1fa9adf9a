package memory

import (
	"errors"
	"testing"
)

// ForceSpill (debug_force_external): a spillable reservation gets its
// first bytes and ErrSpill for any more, far under the limit, and again
// after it spilled (Shrink) and grows past nothing; a reservation that
// cannot spill, and any reservation without a temp directory, grows as
// without the setting.
func TestForceSpill(t *testing.T) {
	m := NewManager(1<<30, "/tmp/somewhere", 0)
	m.ForceSpill(true)
	sort := m.Reserve("sort", Spillable)
	join := m.Reserve("nested loop join", false)
	if err := sort.Grow(100); err != nil {
		t.Fatalf("first bytes: %v", err)
	}
	if err := sort.Grow(1); !errors.Is(err, ErrSpill) {
		t.Fatalf("more bytes: got %v, want ErrSpill", err)
	}
	sort.Shrink(100)
	if err := sort.Grow(10); err != nil {
		t.Fatalf("after spilling, the first bytes again: %v", err)
	}
	for range 3 {
		if err := join.Grow(1000); err != nil {
			t.Fatalf("an operator that cannot spill: %v", err)
		}
	}
	m.Close()

	n := NewManager(1<<30, "", 0)
	n.ForceSpill(true)
	r := n.Reserve("sort", Spillable)
	for range 3 {
		if err := r.Grow(1000); err != nil {
			t.Fatalf("no temp directory: %v", err)
		}
	}
	n.Close()

	o := NewManager(1<<30, "/tmp/somewhere", 0)
	s := o.Reserve("sort", Spillable)
	for range 3 {
		if err := s.Grow(1000); err != nil {
			t.Fatalf("ForceSpill off: %v", err)
		}
	}
	o.Close()
}
