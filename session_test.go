package b2sql

import (
	"context"
	"database/sql"
	"testing"
)

// Each database/sql connection has its own settings: SET threads on one
// leaves the other, and the DB's own methods, as they were.
func TestSetPerConnection(t *testing.T) {
	db, err := Open("", WithThreads(1), WithWarnings(func(string) {}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sqldb := sql.OpenDB(NewConnector(db))
	defer sqldb.Close()
	ctx := context.Background()
	c1, err := sqldb.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	c2, err := sqldb.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	threads := func(c *sql.Conn) int {
		t.Helper()
		n := -1
		if err := c.Raw(func(dc any) error {
			n = dc.(*conn).sess.Settings().Threads
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Both start from the DB's setting.
	if a, b := threads(c1), threads(c2); a != 1 || b != 1 {
		t.Fatalf("threads before SET: %d, %d; want 1, 1", a, b)
	}
	if _, err := c1.ExecContext(ctx, "SET threads = 2"); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.ExecContext(ctx, "SET pruning = off"); err != nil {
		t.Fatal(err)
	}
	want := min(2, mustCPUs(db)) // SET clamps to the usable CPUs
	if a, b := threads(c1), threads(c2); a != want || b != 1 {
		t.Errorf("threads after SET on c1: %d, %d; want %d, 1", a, b, want)
	}
	if got := db.sess.Settings(); got.Threads != 1 || !got.Pruning {
		t.Errorf("DB settings changed by a connection's SET: %+v", got)
	}
	if s := func() bool {
		p := false
		c2.Raw(func(dc any) error { p = dc.(*conn).sess.Settings().Pruning; return nil })
		return p
	}(); s {
		t.Errorf("SET pruning = off on c2 did not hold on c2")
	}
	// Queries on both connections still agree.
	for _, c := range []*sql.Conn{c1, c2} {
		var n int64
		if err := c.QueryRowContext(ctx, "SELECT count(*) FROM range(10000) t(i) WHERE i % 7 = 0").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1429 { // ceil(10000 / 7)
			t.Errorf("count = %d, want 1429", n)
		}
	}
}

// mustCPUs is the thread count SET clamps to.
func mustCPUs(db *DB) int { return db.eng.ClampThreads(1 << 20) }
