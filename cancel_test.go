package b2sql_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/demo"
)

var big struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// bigEvents returns a 3,000,000-row demo events file, generated once per
// test binary.
func bigEvents(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("generates a 3M-row file")
	}
	big.once.Do(func() {
		big.dir, big.err = os.MkdirTemp("", "b2sql-big-")
		if big.err != nil {
			return
		}
		big.path = filepath.Join(big.dir, "events.parquet")
		big.err = demo.Generate(big.path, 3_000_000)
	})
	if big.err != nil {
		t.Fatal(big.err)
	}
	return big.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if big.dir != "" {
		os.RemoveAll(big.dir)
	}
	os.Exit(code)
}

// TestCancelMidScan cancels queries while they run over 3M rows: Next
// must return promptly (the target is 100 ms; the assertion allows 2 s so
// that a loaded machine cannot make it flake) with ctx.Err().
func TestCancelMidScan(t *testing.T) {
	path := bigEvents(t)
	db, err := b2sql.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"SELECT title FROM events WHERE title LIKE '%no such words%'",   // streaming scan, no rows
		"SELECT title, sum(price), count(*) FROM events GROUP BY title", // blocking aggregate (category is too fast on dictionary codes)
		"SELECT * FROM events ORDER BY temperature, title",              // blocking sort
	} {
		t.Run(q, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rows, err := db.Query(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var cancelled time.Time
			timer := time.AfterFunc(50*time.Millisecond, func() {
				cancelled = time.Now()
				cancel()
			})
			defer timer.Stop()
			done := make(chan error, 1)
			go func() {
				for rows.Next() {
				}
				done <- rows.Err()
			}()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("Err = %v, want context.Canceled", err)
				}
				if !cancelled.IsZero() {
					t.Logf("returned %v after cancel", time.Since(cancelled))
				}
			case <-time.After(10 * time.Second):
				t.Fatal("query still running 10 s after cancel")
			}
			if lat := time.Since(cancelled); lat > 2*time.Second {
				t.Errorf("query returned %v after cancel", lat)
			}
		})
	}
	// The DB still answers: sum(id) over 0..N-1 is N(N-1)/2.
	if got := queryInts(t, db, "SELECT sum(id) FROM events"); len(got) != 1 || got[0] != 3_000_000*2_999_999/2 {
		t.Errorf("sum(id) = %v", got)
	}
}
