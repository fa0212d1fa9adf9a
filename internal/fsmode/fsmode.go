// Package fsmode gives files that writers publish by renaming a temporary
// the permissions users expect. os.CreateTemp and os.MkdirTemp make
// private entries (0600, 0700), right while a file is being written but
// wrong once it is renamed into place: a table written by b2sql must be
// as readable as one written by python-blosc2 or DuckDB, which create
// files with 0666 and directories with 0777, less the umask.
package fsmode

import (
	"os"
	"strconv"
	"strings"
	"sync"
)

var umask = sync.OnceValue(readUmask)

// readUmask returns the process umask without changing it (syscall.Umask
// can only read it by setting it, which races with other goroutines
// creating files): Linux reports it in /proc/self/status. Elsewhere the
// usual 022 is assumed.
func readUmask() os.FileMode {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return os.FileMode(m) & os.ModePerm
				}
			}
		}
	}
	return 0o022
}

// Publish sets the permissions of tmp, a file or directory about to be
// renamed to dest: those of dest when it exists (a rewrite keeps them),
// else the mode a plain create would give.
func Publish(tmp, dest string) error {
	st, err := os.Stat(tmp)
	if err != nil {
		return err
	}
	mode := os.FileMode(0o666)
	if st.IsDir() {
		mode = 0o777
	}
	mode &^= umask()
	if old, err := os.Stat(dest); err == nil && old.IsDir() == st.IsDir() {
		mode = old.Mode().Perm()
	}
	return os.Chmod(tmp, mode)
}
