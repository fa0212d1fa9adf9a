package catalog

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/b2sql/b2sql/storage"
)

// Glob lists the files pattern matches, for DuckDB's glob(): local or
// remote, confined to the root as every path a query names, named as the
// pattern spells them, in the order a file function reads them. A path
// without wildcards lists itself when it is a file. Matching nothing is
// no error (an empty list), as in DuckDB.
func (c *Catalog) Glob(pattern string) ([]string, error) {
	p := c.resolve(pattern)
	cp, err := c.Confine(p)
	if err != nil {
		return nil, err
	}
	if !storage.HasGlob(cp) {
		if storage.IsRemote(cp) {
			matches, err := storage.Glob(context.Background(), cp, c.globConfig(cp))
			if err != nil || len(matches) == 0 {
				return nil, err
			}
			return []string{pattern}, nil
		}
		if st, err := os.Stat(cp); err != nil || !st.Mode().IsRegular() {
			return nil, nil
		}
		return []string{pattern}, nil
	}
	matches, err := storage.Glob(context.Background(), cp, c.globConfig(cp))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // the pattern's directory is not there: nothing matches
	}
	if err != nil {
		return nil, err
	}
	if !storage.IsRemote(cp) {
		dirOrder(matches)
	}
	out := make([]string, 0, len(matches))
	for _, m := range matches {
		if _, err := c.Confine(m); err != nil {
			return nil, err
		}
		out = append(out, relName(pattern, cp, m))
	}
	return out, nil
}
