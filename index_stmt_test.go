package b2sql_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
)

// TestIndexStatementsCTable: CREATE INDEX on a CTable written by COPY makes
// WHERE k = … a FULL-index lookup; an INSERT makes the index stale (not
// used, EXPLAIN says so, answers include the new row); REINDEX makes it
// usable again; a read-only DB refuses index statements.
//
// k = (i*7919) % 5000 for i = 0..4999 is a permutation; 7919⁻¹ = 2679
// (mod 5000), so k = 17 is row i = 17*2679 % 5000 = 543.
func TestIndexStatementsCTable(t *testing.T) {
	for _, ext := range []string{".b2d", ".b2z"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			ctx := context.Background()
			db, err := b2sql.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			const gen = `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 4999)
				SELECT CAST(i AS BIGINT) AS i, CAST((i * 7919) % 5000 AS BIGINT) AS k FROM s`
			path := filepath.Join(dir, "t"+ext)
			if err := db.Exec(ctx, "COPY ("+gen+") TO '"+path+"'"); err != nil {
				t.Fatal(err)
			}
			if err := db.RegisterTable("t", path); err != nil {
				t.Fatal(err)
			}
			explain := func(q string) string {
				t.Helper()
				s, err := db.Explain(q)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			const q = "SELECT i FROM t WHERE k = 17 ORDER BY i"
			if s := explain(q); strings.Contains(s, "lookup") {
				t.Fatalf("lookup before CREATE INDEX:\n%s", s)
			}
			if err := db.Exec(ctx, "CREATE INDEX k_idx ON t (k)"); err != nil {
				t.Fatal(err)
			}
			if s := explain(q); !strings.Contains(s, "full index lookup on k: 1 rows") {
				t.Fatalf("no lookup after CREATE INDEX:\n%s", s)
			}
			if got := queryInts(t, db, q); !reflect.DeepEqual(got, []int64{543}) {
				t.Fatalf("k = 17: %v", got)
			}
			if err := db.Exec(ctx, "INSERT INTO t VALUES (5000, 17)"); err != nil {
				t.Fatal(err)
			}
			if s := explain(q); strings.Contains(s, "lookup") || !strings.Contains(s, "stale") {
				t.Fatalf("stale index used or not noted:\n%s", s)
			}
			if got := queryInts(t, db, q); !reflect.DeepEqual(got, []int64{543, 5000}) {
				t.Fatalf("k = 17 after INSERT: %v", got)
			}
			if err := db.Exec(ctx, "REINDEX k_idx"); err != nil {
				t.Fatal(err)
			}
			if s := explain(q); !strings.Contains(s, "full index lookup on k: 2 rows") {
				t.Fatalf("no lookup after REINDEX:\n%s", s)
			}
			if got := queryInts(t, db, q); !reflect.DeepEqual(got, []int64{543, 5000}) {
				t.Fatalf("k = 17 after REINDEX: %v", got)
			}
			// k = 4999 is row 4999*2679 % 5000 = 2321, k = 4998 row 4642.
			if got := queryInts(t, db, "SELECT i FROM t ORDER BY k DESC LIMIT 2"); !reflect.DeepEqual(got, []int64{2321, 4642}) {
				t.Fatalf("ORDER BY k DESC LIMIT 2: %v", got)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			ro, err := b2sql.Open(dir, b2sql.WithReadOnly())
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			if err := ro.RegisterTable("t", path); err != nil {
				t.Fatal(err)
			}
			for _, stmt := range []string{"CREATE INDEX ON t (i)", "DROP INDEX k_idx", "REINDEX t"} {
				if err := ro.Exec(ctx, stmt); !errors.Is(err, b2sql.ErrReadOnly) {
					t.Errorf("%s on a read-only DB: %v", stmt, err)
				}
			}
		})
	}
}
