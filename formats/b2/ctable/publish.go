package ctable

import "os"

// exchangeByRenames swaps a and b with three renames through a side name
// (the fallback where the file system has no atomic exchange).
func exchangeByRenames(a, b string) error {
	side := a + ".old"
	if err := os.Rename(b, side); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		os.Rename(side, b)
		return err
	}
	return os.Rename(side, a)
}
