package repl

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/b2sql/b2sql"
)

// lockedBuffer is written by the meter's goroutine and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type fakeProgress struct{}

// 110 row groups, 10 skipped by statistics, 25 of the other 100 done.
func (fakeProgress) Progress() b2sql.Progress {
	return b2sql.Progress{Units: 110, UnitsSkipped: 10, UnitsDone: 25, Rows: 5000, Bytes: 3 << 20}
}

func TestProgressAppearsLateAndIsErasedBeforeTheResult(t *testing.T) {
	var term lockedBuffer
	quick := startProgress(&term, time.Hour)
	quick.stop()
	if term.String() != "" {
		t.Fatalf("a query faster than the delay drew %q", term.String())
	}

	m := startProgress(&term, time.Millisecond)
	m.rows.Store(1234)
	m.setSource(fakeProgress{})
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(term.String(), "25%") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	drawn := term.String()
	if !strings.Contains(drawn, "running") || !strings.Contains(drawn, "1234 rows") || !strings.Contains(drawn, "25%") || !strings.Contains(drawn, "scanned 5000 rows, 3.0 MiB") {
		t.Fatalf("bar %q lacks the description, row count or percentage", drawn)
	}
	w := clearingWriter{w: &term, m: m}
	w.Write([]byte("result\n"))
	if got := term.String(); !strings.HasSuffix(got, "\x1b[2K\rresult\n") {
		t.Fatalf("the bar was not erased before the result: %q", got[max(0, len(got)-60):])
	}
	m.stop() // idempotent
}
