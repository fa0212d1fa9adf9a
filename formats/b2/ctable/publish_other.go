//go:build !linux

package ctable

import "os"

// exchangeDirs swaps the directories at a and b. Without an atomic
// exchange, b is missing for the instant between two renames; a reader
// that fails to open it then may retry.
func exchangeDirs(a, b string) error {
	if _, err := os.Lstat(b); os.IsNotExist(err) {
		return os.Rename(a, b)
	}
	return exchangeByRenames(a, b)
}
