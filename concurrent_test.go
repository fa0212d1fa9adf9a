package b2sql_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql"
)

// TestConcurrentMixedQueries runs 32 goroutines of mixed work against one
// DB (run it under -race): streaming scans, aggregates, sorts, Arrow
// readers, prepared statements and database/sql on the same tables. Every
// answer is computed by formula from the fixture.
func TestConcurrentMixedQueries(t *testing.T) {
	const n = 20_000
	db := openFixture(t, n, b2sql.WithThreads(2))
	sqldb := sql.OpenDB(b2sql.NewConnector(db))
	defer sqldb.Close()
	prepared, err := db.Prepare("SELECT count(*) FROM t WHERE g = 3")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// 20000 = 7·2857 + 1: g = 0 has 2858 rows, every other g 2857.
	checks := []func() error{
		func() error { return expectInts(db, "SELECT count(*), sum(i) FROM t", n, n*(n-1)/2) },
		func() error { return expectInts(db, "SELECT count(n) FROM t", n-n/5) },
		func() error {
			return expectInts(db, "SELECT g, count(*) FROM t GROUP BY g ORDER BY g", 0, 2858, 1, 2857, 2, 2857, 3, 2857, 4, 2857, 5, 2857, 6, 2857)
		},
		func() error { return expectInts(db, "SELECT sum(i) FROM t WHERE i BETWEEN 100 AND 199", 14950) },
		func() error { return expectInts(db, "SELECT i FROM t ORDER BY i DESC LIMIT 3", n-1, n-2, n-3) },
		func() error {
			rows, err := db.Query(ctx, "SELECT i FROM t")
			if err != nil {
				return err
			}
			rr := rows.RecordReader()
			defer rr.Release()
			var sum int64
			for rr.Next() {
				for _, v := range rr.RecordBatch().Column(0).(*array.Int64).Int64Values() {
					sum += v
				}
			}
			if rr.Err() != nil || sum != n*(n-1)/2 {
				return fmt.Errorf("arrow sum(i) = %d, %v", sum, rr.Err())
			}
			return nil
		},
		func() error {
			rows, err := prepared.Query(ctx)
			if err != nil {
				return err
			}
			defer rows.Close()
			var c int64
			if !rows.Next() || rows.Scan(&c) != nil || c != 2857 {
				return fmt.Errorf("prepared count = %d, %v", c, rows.Err())
			}
			return nil
		},
		func() error {
			var c, s int64
			if err := sqldb.QueryRowContext(ctx, "SELECT count(*), sum(i) FROM t WHERE b").Scan(&c, &s); err != nil {
				return err
			}
			// Even i: 0, 2, …, 19998: 10000 rows summing to 2·(0+…+9999).
			if c != n/2 || s != 2*(n/2)*(n/2-1)/2 {
				return fmt.Errorf("database/sql: count %d sum %d", c, s)
			}
			return nil
		},
		func() error {
			if _, err := db.Explain("SELECT i FROM t WHERE i > 5"); err != nil {
				return err
			}
			if !slices.Equal(db.Tables(), []string{"t"}) {
				return fmt.Errorf("Tables() = %v", db.Tables())
			}
			return nil
		},
	}
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for w := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 6 {
				if err := checks[(w+k)%len(checks)](); err != nil {
					errs <- fmt.Errorf("goroutine %d step %d: %w", w, k, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// expectInts runs q and compares all its cells, row by row, with want.
func expectInts(db *b2sql.DB, q string, want ...int64) error {
	return expectIntsArgs(db, q, nil, want...)
}

// expectIntsArgs is expectInts for a query with ? arguments.
func expectIntsArgs(db *b2sql.DB, q string, args []any, want ...int64) error {
	rows, err := db.Query(context.Background(), q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var got []int64
	cells := make([]int64, len(rows.Columns()))
	dest := make([]any, len(cells))
	for i := range cells {
		dest[i] = &cells[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		got = append(got, cells...)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("%s %v = %v, want %v", q, args, got, want)
	}
	return nil
}
