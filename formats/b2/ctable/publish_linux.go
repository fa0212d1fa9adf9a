package ctable

import (
	"os"

	"golang.org/x/sys/unix"
)

// exchangeDirs swaps the directories at a and b atomically
// (renameat2 RENAME_EXCHANGE): a reader opening b sees the old tree or the
// new one, and b exists at every instant. When b does not exist yet, a is
// renamed to b.
func exchangeDirs(a, b string) error {
	if _, err := os.Lstat(b); os.IsNotExist(err) {
		return os.Rename(a, b)
	}
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if err == unix.ENOSYS || err == unix.EINVAL {
		return exchangeByRenames(a, b)
	}
	if err != nil {
		return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
	}
	return nil
}
