package b2sql_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// EXPLAIN of a write shows the target above the query's plan and writes
// nothing: no row, no file, even with ANALYZE and with parameters.
func TestExplainWrite(t *testing.T) {
	dir := t.TempDir()
	db := openFixture(t, 10)
	out := filepath.Join(dir, "out.parquet")
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		rows, err := db.Query(ctx, q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	exec("CREATE TABLE m (i BIGINT)")
	for _, tc := range []struct {
		q     string
		args  []any
		wants []string
	}{
		{"EXPLAIN INSERT INTO m SELECT i FROM t WHERE i < ?", []any{3}, []string{"Insert into m\n└─ ", "Scan"}},
		{"INSERT INTO m SELECT i FROM t", nil, []string{"Insert into m\n└─ "}}, // Explain without the keyword
		{"EXPLAIN COPY (SELECT i FROM t WHERE i > ?) TO ?", []any{4, out}, []string{"Copy to '" + out + "' format=parquet\n└─ "}},
		{"EXPLAIN DELETE FROM m WHERE i = ?", []any{1}, []string{"Delete from m (the rows whose WHERE is true)\n└─ "}},
	} {
		plan, err := db.Explain(tc.q, tc.args...)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		for _, w := range tc.wants {
			if !strings.Contains(plan, w) {
				t.Errorf("%s:\n%s\nwant it to contain %q", tc.q, plan, w)
			}
		}
	}
	exec("EXPLAIN ANALYZE INSERT INTO m SELECT i FROM t")
	exec("EXPLAIN ANALYZE COPY t TO ?", filepath.Join(dir, "out.b2d"))
	if got := queryInts(t, db, "SELECT count(*) FROM m"); got[0] != 0 {
		t.Errorf("m has %d rows after EXPLAIN, want 0", got[0])
	}
	for _, f := range []string{"out.parquet", "out.b2d"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("%s: EXPLAIN created it (%v)", f, err)
		}
	}
}
