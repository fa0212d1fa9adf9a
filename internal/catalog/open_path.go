package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
)

// OpenPath implements planner.Catalog: a path named in a query, opened by
// the table function fn ("" for a bare path).
func (c *Catalog) OpenPath(fn, path string) (planner.Table, error) {
	if f := strings.ToLower(fn); parquet.InspectFuncs[f] {
		return c.inspect(f, path)
	}
	if f := strings.ToLower(fn); sql.FileFuncs[f] || f == "" && (textKind(path) != "" || storage.HasGlob(path) || strings.Contains(path, "=")) {
		return c.OpenFiles(&sql.FileCall{Func: f, Paths: []string{path}})
	}
	if storage.IsRemote(path) {
		return c.openRemote(fn, path)
	}
	path = c.resolve(path)
	switch strings.ToLower(fn) {
	case "", "read_parquet", "parquet_scan", "read_b2":
		return c.OpenConfined(path)
	case "b2_metadata":
		t, err := c.OpenConfined(path)
		if err != nil {
			return nil, err
		}
		return metadataTable(path, t)
	}
	return nil, fmt.Errorf("unknown table function %q", fn)
}

// resolve makes a relative path relative to the database's directory when
// it has one and the path does not exist from the working directory.
func (c *Catalog) resolve(path string) string {
	dir := c.Dir()
	if filepath.IsAbs(path) || dir == "" || storage.IsRemote(path) {
		return path
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if m, _ := filepath.Glob(path); len(m) > 0 {
		return path
	}
	return filepath.Join(dir, path)
}
