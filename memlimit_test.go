package b2sql_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/b2sql/b2sql"
)

// TestMemoryLimit: a sort of 3M rows with their 20–80 character titles
// needs hundreds of MiB; under a 32 MiB budget it spills and returns every
// row in order, a streaming aggregate under the same budget and the same
// sort without a budget succeed. The budget counts the whole process's
// live heap, so it is set 32 MiB above what this test process already
// holds (earlier tests' caches), not at 32 MiB flat.
func TestMemoryLimit(t *testing.T) {
	path := bigEvents(t)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	limit := int64(ms.HeapAlloc) + 32<<20
	ctx := context.Background()
	drain := func(db *b2sql.DB, q string) (int, error) {
		rows, err := db.Query(ctx, q)
		if err != nil {
			return 0, err
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			n++
		}
		return n, rows.Err()
	}
	small, err := b2sql.Open(path, b2sql.WithMemoryLimit(limit), b2sql.WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	// The sort spills (executor/memory, executor/spill) instead of failing:
	// every row comes back, in order.
	rows, err := small.Query(ctx, "SELECT title FROM events ORDER BY title")
	if err != nil {
		t.Fatal(err)
	}
	n, prev := 0, ""
	for rows.Next() {
		var title string
		if err := rows.Scan(&title); err != nil {
			t.Fatal(err)
		}
		if title < prev {
			t.Fatalf("row %d: %q after %q", n, title, prev)
		}
		prev = title
		n++
	}
	if err := rows.Err(); err != nil || n != 3_000_000 {
		t.Fatalf("sort under a 32 MiB budget: %d rows, %v; want 3000000 rows by spilling", n, err)
	}
	rows.Close()
	if n, err := drain(small, "SELECT region, count(*), sum(price) FROM events GROUP BY region"); err != nil || n != 20 {
		t.Fatalf("a 20-group aggregate under the budget: %d rows, %v", n, err)
	}
	free, err := b2sql.Open(path, b2sql.WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	defer free.Close()
	if n, err := drain(free, "SELECT title, id FROM events ORDER BY title LIMIT 3000000"); err != nil || n != 3_000_000 {
		t.Fatalf("sort without a budget: %d rows, %v", n, err)
	}
}
