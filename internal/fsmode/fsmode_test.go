package fsmode

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPublish checks the three cases against entries the test creates with
// os.WriteFile and os.Mkdir under the same umask: a new file or directory
// gets what a plain create gives, a rewrite keeps the old permissions.
func TestPublish(t *testing.T) {
	dir := t.TempDir()
	plainFile := filepath.Join(dir, "plain")
	if err := os.WriteFile(plainFile, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	plainDir := filepath.Join(dir, "plaindir")
	if err := os.Mkdir(plainDir, 0o777); err != nil {
		t.Fatal(err)
	}
	perm := func(p string) os.FileMode {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.Mode().Perm()
	}

	tmp, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		t.Fatal(err)
	}
	tmp.Close()
	if perm(tmp.Name()) != 0o600 {
		t.Fatalf("CreateTemp gave %v, the case this package exists for is 0600", perm(tmp.Name()))
	}
	if err := Publish(tmp.Name(), filepath.Join(dir, "new")); err != nil {
		t.Fatal(err)
	}
	if g, w := perm(tmp.Name()), perm(plainFile); g != w {
		t.Errorf("new file: %v, want %v (as os.WriteFile with 0666 gives)", g, w)
	}

	tdir, err := os.MkdirTemp(dir, "tmpdir-*")
	if err != nil {
		t.Fatal(err)
	}
	if err := Publish(tdir, filepath.Join(dir, "newdir")); err != nil {
		t.Fatal(err)
	}
	if g, w := perm(tdir), perm(plainDir); g != w {
		t.Errorf("new directory: %v, want %v (as os.Mkdir with 0777 gives)", g, w)
	}

	old := filepath.Join(dir, "old")
	if err := os.WriteFile(old, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Publish(tmp.Name(), old); err != nil {
		t.Fatal(err)
	}
	if g := perm(tmp.Name()); g != 0o640 {
		t.Errorf("rewrite: %v, want the old file's 0640", g)
	}
}
