package b2sql_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql"
)

// TestDropTableDirectoryDB: in a directory database a table is its file, so
// DROP TABLE removes it (the table does not come back at the next open),
// while a table registered from another directory keeps its file.
func TestDropTableDirectoryDB(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	ext := filepath.Join(other, "ext.b2d")
	db, err := b2sql.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1), (2)")
	mustExec(t, db, "CREATE TABLE p WITH (FORMAT parquet) AS SELECT 7 AS y")
	mustExec(t, db, "COPY (SELECT 3 AS z) TO '"+ext+"'")
	if err := db.RegisterTable("ext", ext); err != nil {
		t.Fatal(err)
	}
	// no writer's lock file (.name.lock) stays behind
	if got := dirEntries(t, dir); got != "a.b2d p.parquet" {
		t.Fatalf("before DROP: directory holds %q", got)
	}
	mustExec(t, db, "DROP TABLE a; DROP TABLE p; DROP TABLE ext")
	if got := dirEntries(t, dir); got != "" {
		t.Errorf("after DROP: directory still holds %q", got)
	}
	if _, err := os.Stat(ext); err != nil {
		t.Errorf("a table registered from elsewhere lost its file: %v", err)
	}
	db.Close()
	db2, err := b2sql.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if got := len(db2.Tables()); got != 0 {
		t.Errorf("reopened directory has %d tables (%v), want 0", got, db2.Tables())
	}
}
