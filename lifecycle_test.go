package b2sql

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/parquet"
)

// writeSeq writes a table of n rows: i BIGINT = 0..n-1 and num VARCHAR =
// the digits of i, except "oops" at row bad (bad < 0: none).
func writeSeq(t *testing.T, n, bad int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "seq.parquet")
	sc := columnar.Schema{{Name: "i", Type: columnar.TInt64}, {Name: "num", Type: columnar.TVarchar}}
	w, err := parquet.NewWriter(path, sc, parquet.WriterOptions{RowGroupRows: 4096})
	if err != nil {
		t.Fatal(err)
	}
	for lo := 0; lo < n; lo += columnar.MaxBatch {
		m := min(columnar.MaxBatch, n-lo)
		b := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TVarchar}, m)
		b.Len = m
		for r := range m {
			b.Cols[0].Ints[r] = int64(lo + r)
			if lo+r == bad {
				b.Cols[1].Bytes[r] = []byte("oops")
			} else {
				b.Cols[1].Bytes[r] = []byte(columnar.IntValue(columnar.TInt64, int64(lo+r)).String())
			}
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func openSeq(t *testing.T, n, bad int) *DB {
	t.Helper()
	db, err := Open(writeSeq(t, n, bad), WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// settle waits for goroutines started by queries to exit.
func settle(base int) int {
	for k := 0; k < 200 && runtime.NumGoroutine() > base; k++ {
		time.Sleep(5 * time.Millisecond)
	}
	return runtime.NumGoroutine()
}

// TestFailureHalfWayReleases runs a query whose CAST fails on row 60000
// of 100000 (with two scan workers): the error surfaces from Err, the Rows is closed and every
// resource (in-flight count, scan goroutines) is released.
func TestFailureHalfWayReleases(t *testing.T) {
	db := openSeq(t, 100_000, 60_000)
	defer db.Close()
	base := runtime.NumGoroutine()
	rows, err := db.Query(context.Background(), "SELECT i, CAST(num AS BIGINT) FROM seq")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var i, v int64
		if err := rows.Scan(&i, &v); err != nil || i != v {
			t.Fatalf("row %d: %d %d %v", n, i, v, err)
		}
		n++
	}
	if rows.Err() == nil {
		t.Fatal("the failing CAST did not surface")
	}
	// Two scan workers: rows of later row groups may arrive before the
	// failing one, but never all of them.
	if n >= 100_000 {
		t.Errorf("%d rows before the error, want fewer than 100000", n)
	}
	if db.inFlight() != 0 {
		t.Errorf("%d statements in flight after the failure", db.inFlight())
	}
	if g := settle(base); g > base {
		t.Errorf("%d goroutines after the failure, %d before", g, base)
	}
	rows.Close() // still fine
	if got := queryOne(t, db, "SELECT count(*) FROM seq WHERE i < 60000"); got != 60_000 {
		t.Errorf("after the failure: count = %d", got)
	}
}

// TestCloseWhileRowsOpen closes the DB under a running query: the query
// ends with ErrClosed, the tables are released when it is closed, and new
// statements fail with ErrClosed.
func TestCloseWhileRowsOpen(t *testing.T) {
	db := openSeq(t, 200_000, -1)
	rows, err := db.Query(context.Background(), "SELECT i FROM seq")
	if err != nil {
		t.Fatal(err)
	}
	idle, err := db.Query(context.Background(), "SELECT i FROM seq ORDER BY i DESC")
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
	}
	if !errors.Is(rows.Err(), ErrClosed) {
		t.Errorf("running query after Close: Err = %v, want ErrClosed", rows.Err())
	}
	if idle.Next() || !errors.Is(idle.Err(), ErrClosed) {
		t.Errorf("unstarted query after Close: Err = %v, want ErrClosed", idle.Err())
	}
	if db.inFlight() != 0 {
		t.Errorf("%d statements in flight", db.inFlight())
	}
	rows.Close()
	idle.Close()
	if _, err := db.Query(context.Background(), "SELECT 1"); !errors.Is(err, ErrClosed) {
		t.Errorf("Query after Close: %v, want ErrClosed", err)
	}
	if _, err := db.Prepare("SELECT 1"); !errors.Is(err, ErrClosed) {
		t.Errorf("Prepare after Close: %v, want ErrClosed", err)
	}
}

// TestRowsCloseFromAnotherGoroutine stops a blocked Next by closing its
// Rows from elsewhere: Next returns false and Err is nil.
func TestRowsCloseFromAnotherGoroutine(t *testing.T) {
	db := openSeq(t, 300_000, -1)
	defer db.Close()
	rows, err := db.Query(context.Background(), "SELECT num, count(*) FROM seq GROUP BY num ORDER BY num")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for rows.Next() {
		}
	}()
	time.Sleep(time.Millisecond)
	if err := rows.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Next still running 5 s after Close")
	}
	if err := rows.Err(); err != nil {
		t.Errorf("Err after Close = %v, want nil", err)
	}
	if db.inFlight() != 0 {
		t.Errorf("%d statements in flight", db.inFlight())
	}
}

func queryOne(t *testing.T, db *DB, q string, args ...any) int64 {
	t.Helper()
	rows, err := db.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var v int64
	if !rows.Next() {
		t.Fatalf("%s: no row: %v", q, rows.Err())
	}
	if err := rows.Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
