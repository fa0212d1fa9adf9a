package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/sql"
)

// TestAttachPaths: ATTACH of a missing 'x.db' makes the directory x.db
// (b2sql's database is a directory) named x; a DuckDB database file
// (the magic "DUCK" at byte 8) and any other plain file are refused with
// what b2sql attaches.
func TestAttachPaths(t *testing.T) {
	dir := t.TempDir()
	c := New(Options{})
	defer c.Close()
	if err := c.Attach(&sql.Attach{Path: filepath.Join(dir, "new.db")}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, "new.db")); err != nil || !st.IsDir() {
		t.Errorf("ATTACH of a missing new.db: %v, want a directory", err)
	}
	if d, ok := c.Database("new"); !ok || d.Dir != filepath.Join(dir, "new.db") {
		t.Errorf("database new: %+v, %v", d, ok)
	}
	// A DuckDB file: a checksum, then "DUCK" and the rest of the header.
	head := append([]byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte("DUCK\x40\x00\x00\x00")...)
	duck := filepath.Join(dir, "real.duckdb")
	if err := os.WriteFile(duck, head, 0o644); err != nil {
		t.Fatal(err)
	}
	err := c.Attach(&sql.Attach{Path: duck})
	if err == nil || !strings.Contains(err.Error(), "is a DuckDB database file") || !strings.Contains(err.Error(), "directory of blosc2") {
		t.Errorf("ATTACH of a DuckDB file: %v", err)
	}
	plain := filepath.Join(dir, "notes.dat")
	if err := os.WriteFile(plain, []byte("hello, not a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Attach(&sql.Attach{Path: plain}); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("ATTACH of a plain file: %v", err)
	}
	if _, ok := c.Database("real"); ok {
		t.Error("a refused ATTACH left a database")
	}
}
