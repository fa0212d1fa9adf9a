package b2sql_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/b2sql/b2sql"
)

func TestCreateTableAs(t *testing.T) {
	db := openFixture(t, 1000)
	ctx := context.Background()
	// Rows written are reported as DuckDB does: one Count row.
	if err := expectInts(db, "CREATE TABLE small AS SELECT i, i * 2 AS twice FROM t WHERE i < 100", 100); err != nil {
		t.Fatal(err)
	}
	if err := expectInts(db, "SELECT count(*), sum(twice) FROM small", 100, 9900); err != nil {
		t.Error(err)
	}
	if !slices.Contains(db.Tables(), "small") {
		t.Errorf("Tables() = %v", db.Tables())
	}
	_, err := db.Query(ctx, "CREATE TABLE small AS SELECT 1")
	var e *b2sql.Error
	if !errors.Is(err, b2sql.ErrTableExists) || !errors.As(err, &e) || e.Pos != (b2sql.Pos{Line: 1, Col: 14}) {
		t.Errorf("CREATE TABLE over an existing one: %v", err)
	}
	// OR REPLACE, with a parameter: i < 10 sums to 45.
	if err := db.Exec(ctx, "CREATE OR REPLACE TABLE small AS SELECT i FROM t WHERE i < ?", 10); err != nil {
		t.Fatal(err)
	}
	if err := expectInts(db, "SELECT count(*), sum(i) FROM small", 10, 45); err != nil {
		t.Error(err)
	}
	if err := db.Exec(ctx, "DROP TABLE small; DROP TABLE IF EXISTS small"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Query(ctx, "SELECT * FROM small"); !errors.Is(err, b2sql.ErrUnknownTable) {
		t.Errorf("after DROP: %v", err)
	}
	if err := db.Exec(ctx, "DROP TABLE small"); !errors.Is(err, b2sql.ErrUnknownTable) {
		t.Errorf("DROP of a missing table: %v", err)
	}
}

func TestCopyTo(t *testing.T) {
	db := openFixture(t, 500)
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "out.parquet")
	// i % 7 = 3 for i < 500: 71 rows (3, 10, …, 493), sum = 71·(3 + 493)/2 = 17608.
	if err := expectInts(db, "COPY (SELECT i, s FROM t WHERE g = 3) TO '"+out+"' (FORMAT parquet, COMPRESSION zstd)", 71); err != nil {
		t.Fatal(err)
	}
	if err := expectInts(db, "SELECT count(*), sum(i) FROM '"+out+"'", 71, 17608); err != nil {
		t.Error(err)
	}
	whole := filepath.Join(t.TempDir(), "whole.parquet")
	if err := db.Exec(ctx, "COPY t TO '"+whole+"'"); err != nil {
		t.Fatal(err)
	}
	if err := expectInts(db, "SELECT count(*), count(n), sum(i) FROM '"+whole+"'", 500, 400, 124750); err != nil {
		t.Error(err)
	}
	for _, q := range []string{
		"COPY (SELECT 1) TO 'x.csv' (FORMAT xlsx)",
		"COPY (SELECT 1) TO '" + filepath.Join(t.TempDir(), "*.parquet") + "'",
	} {
		if err := db.Exec(ctx, q); !errors.Is(err, b2sql.ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", q, err)
		}
	}
	// A failing query leaves no file behind.
	failed := filepath.Join(t.TempDir(), "failed.parquet")
	if err := db.Exec(ctx, "COPY (SELECT CAST(s AS BIGINT) FROM t) TO '"+failed+"'"); err == nil {
		t.Error("COPY of a failing query succeeded")
	}
	if _, err := os.Stat(failed); !os.IsNotExist(err) {
		t.Errorf("failed COPY left %s: %v", failed, err)
	}
}

func TestWritesReadOnlyAndRoot(t *testing.T) {
	root := t.TempDir()
	writeFixture(t, root, "t", 100, 1000, -1)
	ro, err := b2sql.Open(root, b2sql.WithReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ctx := context.Background()
	for _, q := range []string{"CREATE TABLE x AS SELECT 1", "COPY t TO 'y.parquet'", "DROP TABLE t"} {
		if err := ro.Exec(ctx, q); !errors.Is(err, b2sql.ErrReadOnly) {
			t.Errorf("read-only %s: %v", q, err)
		}
	}
	db, err := b2sql.Open(root, b2sql.WithRoot(root))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec(ctx, "COPY t TO '../escape.parquet'"); !errors.Is(err, b2sql.ErrOutsideRoot) {
		t.Errorf("COPY outside the root: %v", err)
	}
	// Inside the root, relative to it; CREATE TABLE on a directory DB
	// writes name.parquet there, so a new Open sees it.
	if err := db.Exec(ctx, "COPY (SELECT i FROM t WHERE i < 5) TO 'five.parquet'; CREATE TABLE evens AS SELECT i FROM t WHERE b"); err != nil {
		t.Fatal(err)
	}
	db2, err := b2sql.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if err := expectInts(db2, "SELECT count(*), sum(i) FROM evens", 50, 2450); err != nil {
		t.Error(err)
	}
	if err := expectInts(db2, "SELECT count(*) FROM five", 5); err != nil {
		t.Error(err)
	}
}

// TestConcurrentWrites replaces one table from several goroutines while
// others read it (run under -race): writes to the table are serialized, and
// every read sees one complete version (k rows summing to k(k-1)/2).
func TestConcurrentWrites(t *testing.T) {
	db := openFixture(t, 2000, b2sql.WithThreads(2))
	ctx := context.Background()
	if err := db.Exec(ctx, "CREATE TABLE c AS SELECT i FROM t WHERE i < 10"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 6 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for k := range 3 {
				if err := db.Exec(ctx, "CREATE OR REPLACE TABLE c AS SELECT i FROM t WHERE i < ?", 100*(w+1)+k); err != nil {
					errs <- err
					return
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range 5 {
				rows, err := db.Query(ctx, "SELECT count(*), sum(i) FROM c")
				if err != nil {
					errs <- err
					return
				}
				var k, s int64
				if !rows.Next() || rows.Scan(&k, &s) != nil || s != k*(k-1)/2 {
					errs <- fmt.Errorf("read count %d sum %d (%v)", k, s, rows.Err())
				}
				rows.Close()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCopyToParamPath(t *testing.T) {
	db := openFixture(t, 100)
	out := filepath.Join(t.TempDir(), "p.parquet")
	// i < 20 and i % 2 = 0: 10 rows summing to 90.
	if err := expectIntsArgs(db, "COPY (SELECT i FROM t WHERE i < ? AND b) TO ?", []any{20, out}, 10); err != nil {
		t.Fatal(err)
	}
	if err := expectInts(db, "SELECT count(*), sum(i) FROM '"+out+"'", 10, 90); err != nil {
		t.Error(err)
	}
	_, err := db.Query(context.Background(), "COPY (SELECT i FROM t WHERE i < ?) TO ?", 20)
	var e *b2sql.Error
	if !errors.Is(err, b2sql.ErrParam) || !errors.As(err, &e) || e.Pos != (b2sql.Pos{Line: 1, Col: 39}) {
		t.Errorf("missing path argument: %v", err)
	}
	if _, err := db.Query(context.Background(), "COPY t TO ?", 5); !errors.Is(err, b2sql.ErrParam) {
		t.Errorf("integer path: %v", err)
	}
}
