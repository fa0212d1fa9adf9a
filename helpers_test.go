package b2sql_test

import (
	"context"
	"testing"

	"github.com/b2sql/b2sql"
)

// openFixture opens an in-memory DB with the fixture table t of n rows.
func openFixture(t testing.TB, n int, opts ...b2sql.Option) *b2sql.DB {
	t.Helper()
	dir := t.TempDir()
	path := writeFixture(t, dir, "t", n, 1000, -1)
	db, err := b2sql.Open("", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.RegisterTable("t", path); err != nil {
		t.Fatal(err)
	}
	return db
}

// queryInts runs q, which returns one BIGINT-compatible column, and
// returns its values.
func queryInts(t testing.TB, db *b2sql.DB, q string, args ...any) []int64 {
	t.Helper()
	rows, err := db.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}
