//go:build unix

package catalog

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// removeDebris deletes the temporary versions of the table at path that
// writers killed mid-write left behind (".<name>.tmp-*"): under the lock,
// no live writer of this table can own one.
func removeDebris(path string) {
	m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*"))
	for _, d := range m {
		os.RemoveAll(d)
	}
}

// LockFile takes the cross-process write lock of the table file or
// directory at path: an exclusive flock on ".<name>.lock" beside it (not
// inside: a .b2d directory is replaced by each write). It waits for other
// writers. The lock file lives only while a writer holds it, so that no
// ".x.lock" stays next to the tables a user writes: unlock removes it
// before letting go, and a writer that locked a file already removed
// (it opened the name before the holder removed it) finds the name gone
// or another file under it, and tries again. Readers never need it, since
// every write is published by one atomic rename. Within a process,
// Catalog.Lock serializes first (flock locks belong to open files, not
// goroutines).
func LockFile(path string) (unlock func(), err error) {
	name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("b2sql: lock %s: %w", name, err)
		}
		for {
			err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
			if err != unix.EINTR {
				break
			}
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("b2sql: lock %s: %w", name, err)
		}
		if !sameFile(f, name) {
			f.Close() // the holder before us removed it: lock the new one
			continue
		}
		removeDebris(path)
		return func() {
			os.Remove(name)
			unix.Flock(int(f.Fd()), unix.LOCK_UN)
			f.Close()
		}, nil
	}
}

// sameFile reports whether the open file f is still the one at name.
func sameFile(f *os.File, name string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(name)
	return err == nil && os.SameFile(a, b)
}
