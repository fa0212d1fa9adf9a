package ctable

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// TestPublishedPermissions: tables are written under private temporary
// names (0700 directories, 0600 files) and renamed into place; once
// published they must be as readable as a plain os.Mkdir / os.Create makes
// them, and a change must keep the permissions the table had.
func TestPublishedPermissions(t *testing.T) {
	dir := t.TempDir()
	perm := func(p string) os.FileMode {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.Mode().Perm()
	}
	plainDir, plainFile := filepath.Join(dir, "d"), filepath.Join(dir, "f")
	if err := os.Mkdir(plainDir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plainFile, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	schema := columnar.Schema{{Name: "id", Type: columnar.TInt64}}
	types := []columnar.Type{columnar.TInt64}
	for _, ext := range []string{".b2d", ".b2z"} {
		path := filepath.Join(dir, "t"+ext)
		w, err := Create(path, schema, CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(valuesBatch(types, [][]columnar.Value{{vi64(1)}})); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		want := perm(plainFile)
		if ext == ".b2d" {
			want = perm(plainDir)
			if g, w := perm(filepath.Join(path, "_meta.b2f")), perm(plainFile); g != w {
				t.Errorf("%s/_meta.b2f: %v, want %v", path, g, w)
			}
		}
		if g := perm(path); g != want {
			t.Errorf("new %s: %v, want %v", path, g, want)
		}
		if err := os.Chmod(path, 0o750); err != nil {
			t.Fatal(err)
		}
		commitChange(t, path, nil, valuesBatch(types, [][]columnar.Value{{vi64(2)}}))
		if g := perm(path); g != 0o750 {
			t.Errorf("%s after an append: %v, want the 0750 it had", path, g)
		}
	}
}
