package b2sql

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/planner"
)

// catalog is the DB's name → table map; it implements planner.Catalog.
type catalog struct {
	db *DB
}

func (c catalog) Table(name string) (planner.Table, bool) {
	c.db.mu.RLock()
	defer c.db.mu.RUnlock()
	t, ok := c.db.tables[strings.ToLower(name)]
	return t, ok
}

func (c catalog) TableNames() []string { return c.db.Tables() }

func (c catalog) OpenPath(fn, path string) (planner.Table, error) {
	switch strings.ToLower(fn) {
	case "", "read_parquet", "parquet_scan":
	default:
		return nil, fmt.Errorf("unknown table function %q", fn)
	}
	return c.db.openConfined(c.db.resolve(path))
}

// openPath opens a file or glob by its extension.
func openPath(path string) (planner.Table, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".parquet", ".pq", ".parq":
		return parquet.Open(path)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory; name a file or a glob such as '%s/*.parquet'", path, path)
	}
	return nil, fmt.Errorf("%s: unknown file format %q (expected .parquet)", path, ext)
}

// resolve makes a relative path relative to the DB's directory when the DB
// was opened on one and the path does not exist from the working directory.
func (db *DB) resolve(path string) string {
	if filepath.IsAbs(path) || db.dir == "" {
		return path
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if m, _ := filepath.Glob(path); len(m) > 0 {
		return path
	}
	return filepath.Join(db.dir, path)
}

// RegisterTable makes the file or glob at path queryable as name.
func (db *DB) RegisterTable(name, path string) error {
	t, err := db.openConfined(path)
	if err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	db.tables[strings.ToLower(name)] = t
	db.names[strings.ToLower(name)] = name
	return nil
}

// Tables lists the registered table names, sorted.
func (db *DB) Tables() []string {
	db.mu.RLock()
	defer db.mu.RUnlock()
	out := make([]string, 0, len(db.names))
	for _, n := range db.names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// registerDir registers every table file directly inside dir.
func (db *DB) registerDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		ext := strings.ToLower(filepath.Ext(name))
		switch ext {
		case ".parquet", ".pq", ".parq":
		default:
			continue
		}
		if err := db.RegisterTable(strings.TrimSuffix(name, filepath.Ext(name)), filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("registering %s: %w", name, err)
		}
	}
	return nil
}
