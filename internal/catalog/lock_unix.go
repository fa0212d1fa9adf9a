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
// writers. The lock file is left in place (removing it would race with a
// writer that just opened it); readers never need it, since every write
// is published by one atomic rename. Within a process, Catalog.Lock
// serializes first (flock locks belong to open files, not goroutines).
func LockFile(path string) (unlock func(), err error) {
	name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
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
	removeDebris(path)
	return func() {
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}
