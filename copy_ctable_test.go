package b2sql_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql"
)

// TestCopyToCTable: COPY … TO a .b2d or .b2z target writes a CTable that
// reads back with the same values, NULLs and row count (values by formula:
// i, i*0.5, 'k' || (i % 3), NULL every 4th x).
func TestCopyToCTable(t *testing.T) {
	dir := t.TempDir()
	db, err := b2sql.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	src := filepath.Join(dir, "src.parquet")
	const gen = `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000)
		SELECT i, CASE WHEN i % 4 = 0 THEN NULL ELSE i * 0.5 END AS x, 'k' || (i % 3) AS k FROM s`
	if err := db.Exec(ctx, "COPY ("+gen+") TO '"+src+"'"); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".b2d", ".b2z"} {
		out := filepath.Join(dir, "t"+ext)
		if err := db.Exec(ctx, "COPY (SELECT * FROM '"+src+"') TO '"+out+"'"); err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		rows, err := db.Query(ctx, "SELECT count(*), count(x), sum(i), sum(x), count(DISTINCT k), min(k), max(k) FROM '"+out+"'")
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if !rows.Next() {
			t.Fatalf("%s: no row: %v", ext, rows.Err())
		}
		var n, nx, si int64
		var sx float64
		var dk int64
		var mink, maxk string
		if err := rows.Scan(&n, &nx, &si, &sx, &dk, &mink, &maxk); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		// 1000 rows; x NULL for the 250 multiples of 4; sum i = 500500;
		// sum x = 0.5 * (500500 - 4*(1+…+250)) = 0.5 * (500500 - 125500) = 187500.
		if n != 1000 || nx != 750 || si != 500500 || sx != 187500 || dk != 3 || mink != "k0" || maxk != "k2" {
			t.Errorf("%s: got %d %d %d %v %d %s %s", ext, n, nx, si, sx, dk, mink, maxk)
		}
	}
}
