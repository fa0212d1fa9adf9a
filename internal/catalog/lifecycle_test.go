package catalog

import (
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// closeCounter is a table that counts its Close calls.
type closeCounter struct {
	*MemTable
	closed int
}

func (t *closeCounter) Close() error { t.closed++; return nil }

func newCounter() *closeCounter {
	return &closeCounter{MemTable: NewMemTable(columnar.Schema{{Name: "a", Type: columnar.TInt64}}, nil)}
}

// TestRetiredTablesCloseWhenIdle checks that a replaced or dropped table
// is closed once no statement is in flight, not before, and never while
// another name still registers it.
func TestRetiredTablesCloseWhenIdle(t *testing.T) {
	c := New(Options{})
	defer c.Close()
	old, shared := newCounter(), newCounter()
	c.Put("t", old)
	c.Put("s1", shared)
	c.Put("s2", shared)

	if err := c.Acquire(); err != nil { // a statement holding old
		t.Fatal(err)
	}
	c.Put("t", newCounter()) // CREATE OR REPLACE elsewhere
	c.Put("s1", newCounter())
	if old.closed != 0 {
		t.Fatalf("old closed while a statement is in flight")
	}
	c.Release()
	if old.closed != 1 {
		t.Fatalf("old closed %d times after the last statement, want 1", old.closed)
	}
	if shared.closed != 0 {
		t.Fatalf("a table still registered as s2 was closed")
	}

	c.Drop("s2")
	if err := c.Acquire(); err != nil {
		t.Fatal(err)
	}
	c.Release()
	if shared.closed != 1 || old.closed != 1 {
		t.Fatalf("after DROP s2: shared closed %d, old %d; want 1, 1", shared.closed, old.closed)
	}
}
