package b2sql_test

import (
	"context"
	"testing"

	"github.com/b2sql/b2sql"
)

// DELETE and UPDATE address rows by row id: after an UPDATE has moved rows
// to the end of a CTable (tombstone + append) a DELETE with a parallel
// plan must still remove exactly the rows its WHERE selects. Every sum is
// computed by formula.
func TestDeleteAfterUpdateByRowID(t *testing.T) {
	const n = 300_000
	for _, format := range []string{"b2d", "memory"} {
		t.Run(format, func(t *testing.T) {
			db, err := b2sql.Open(t.TempDir(), b2sql.WithThreads(2), b2sql.WithWarnings(func(string) {}))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx := context.Background()
			for _, q := range []string{
				"CREATE TABLE t (i BIGINT, j BIGINT) WITH (FORMAT " + format + ")",
				"INSERT INTO t SELECT i, 2 * i FROM range(300000) r(i)",
				"UPDATE t SET j = j + 1 WHERE i < 30000",
				"DELETE FROM t WHERE i % 10 = 0",
				"UPDATE t SET j = -j WHERE i % 10 = 1 AND i >= 150000",
			} {
				if err := db.Exec(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			// Rows left: i % 10 != 0. j = 2i, +1 when i < 30000, negated
			// when i % 10 = 1 and i >= 150000.
			var wantN, wantSum int64
			for i := int64(0); i < n; i++ {
				if i%10 == 0 {
					continue
				}
				j := 2 * i
				if i < 30000 {
					j++
				}
				if i%10 == 1 && i >= 150000 {
					j = -j
				}
				wantN++
				wantSum += j
			}
			var got []int64
			for _, q := range []string{"SELECT count(*) FROM t", "SELECT sum(j) FROM t", "SELECT count(*) FROM t WHERE i % 10 = 0"} {
				got = append(got, queryInts(t, db, q)...)
			}
			if len(got) != 3 || got[0] != wantN || got[1] != wantSum || got[2] != 0 {
				t.Errorf("count, sum(j), deleted left = %v, want %d, %d, 0", got, wantN, wantSum)
			}
		})
	}
}
