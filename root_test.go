package b2sql_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql"
)

// TestRootConfinement: with WithRoot, files inside the root are readable
// by relative and absolute paths; paths and symbolic links leading outside
// are refused, from RegisterTable, Open and SQL alike.
func TestRootConfinement(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, filepath.Join(root, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFixture(t, filepath.Join(root, "sub"), "items", 100, 1000, -1)
	secret := writeFixture(t, outside, "secret", 50, 1000, -1)
	if err := os.Symlink(secret, filepath.Join(root, "link.parquet")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}

	db, err := b2sql.Open("", b2sql.WithRoot(root))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()

	// Inside: relative to the root, or absolute.
	if err := db.RegisterTable("items", "sub/items.parquet"); err != nil {
		t.Fatalf("RegisterTable inside the root: %v", err)
	}
	if got := queryInts(t, db, "SELECT count(*) FROM items"); len(got) != 1 || got[0] != 100 {
		t.Errorf("count = %v", got)
	}
	abs := filepath.Join(root, "sub", "items.parquet")
	if got := queryInts(t, db, "SELECT sum(i) FROM '"+abs+"'"); len(got) != 1 || got[0] != 4950 {
		t.Errorf("sum over absolute path = %v", got)
	}
	if got := queryInts(t, db, "SELECT count(*) FROM read_parquet('sub/*.parquet')"); len(got) != 1 || got[0] != 100 {
		t.Errorf("glob inside = %v", got)
	}

	// Outside: every way in is refused.
	for _, p := range []string{secret, "../outside/secret.parquet", "link.parquet", "linkdir/secret.parquet", "sub/../../outside/secret.parquet"} {
		if err := db.RegisterTable("x", p); !errors.Is(err, b2sql.ErrOutsideRoot) {
			t.Errorf("RegisterTable(%q) = %v, want ErrOutsideRoot", p, err)
		}
		for _, q := range []string{"SELECT count(*) FROM '" + p + "'", "SELECT count(*) FROM read_parquet('" + p + "')"} {
			_, err := db.Query(ctx, q)
			var e *b2sql.Error
			if !errors.Is(err, b2sql.ErrOutsideRoot) || !errors.As(err, &e) || e.Pos.Col < 22 || !strings.Contains(err.Error(), "outside the root") {
				t.Errorf("%s: err = %v, want a positioned ErrOutsideRoot", q, err)
			}
		}
	}
	if _, err := db.Query(ctx, "SELECT count(*) FROM read_parquet('*/*.parquet')"); err == nil || !strings.Contains(err.Error(), "outside the root") {
		t.Errorf("glob through a symlinked directory: err = %v, want a refusal", err)
	}
	if _, err := b2sql.Open(outside, b2sql.WithRoot(root)); !errors.Is(err, b2sql.ErrOutsideRoot) {
		t.Errorf("Open outside the root: %v", err)
	}
	if db2, err := b2sql.Open("sub", b2sql.WithRoot(root)); err != nil {
		t.Errorf("Open(\"sub\") inside the root: %v", err)
	} else {
		if !slicesEqual(db2.Tables(), []string{"items"}) {
			t.Errorf("Tables() = %v", db2.Tables())
		}
		db2.Close()
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }
