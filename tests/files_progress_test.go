package tests

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql"
)

// TestFileProgress: a query over a hive dataset reports its files in
// Progress — all of them, those a partition predicate skipped unopened,
// and those read to the end (testdata/files/hive_duck: 3 regions × 2 days,
// one file each).
func TestFileProgress(t *testing.T) {
	db, err := b2sql.Open("", b2sql.WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	glob := filepath.ToSlash(filepath.Join("testdata", "files", "hive_duck", "*", "*", "*.parquet"))
	rows, err := db.Query(context.Background(), "SELECT count(*) FROM '"+glob+"' WHERE region = 1")
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	p := rows.Progress()
	rows.Close()
	if n != 4 || p.Files != 6 || p.FilesSkipped != 4 || p.FilesDone != 2 {
		t.Errorf("count %d, files %d, skipped %d, done %d; want 4, 6, 4, 2", n, p.Files, p.FilesSkipped, p.FilesDone)
	}
}
