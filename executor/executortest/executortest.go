// Package executortest holds the helpers executor tests share, so that a
// check every spilling operator's test makes is written once. It imports
// the executor's leaves (memory) but not the executor, so that the
// executor's own tests can use it.
package executortest

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/internal/leakcheck"
)

// Released fails t unless an operator that was closed (after finishing,
// failing or being cancelled) left nothing behind: no file in its spill
// directory dir, no byte reserved in m, no goroutine more than before.
// dir "", m nil or before < 0 skip that check.
func Released(t testing.TB, dir string, m *memory.Manager, before int) {
	t.Helper()
	if m != nil && m.Used() != 0 {
		t.Fatalf("%d bytes still reserved after Close", m.Used())
	}
	if dir != "" {
		if e, _ := os.ReadDir(dir); len(e) != 0 {
			t.Fatalf("spill files left: %v", e)
		}
	}
	if before >= 0 {
		if n := leakcheck.Goroutines(before); n > before {
			t.Fatalf("%d goroutines, %d before", n, before)
		}
	}
}

// Cancelled fails t unless err is the context's cancellation.
func Cancelled(t testing.TB, err error) {
	t.Helper()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the context's cancellation", err)
	}
}
