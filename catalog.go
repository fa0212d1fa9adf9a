package b2sql

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
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
	path = c.db.resolve(path)
	switch strings.ToLower(fn) {
	case "", "read_parquet", "parquet_scan", "read_b2":
		return c.db.openConfined(path)
	case "b2_metadata":
		t, err := c.db.openConfined(path)
		if err != nil {
			return nil, err
		}
		return metadataTable(path, t)
	}
	return nil, fmt.Errorf("unknown table function %q", fn)
}

// tableKind classifies a path by its extension: "parquet", "ctable"
// (.b2d directory or .b2z file), "array" (.b2nd, .b2frame, .b2f) or "".
func tableKind(path string) string {
	switch strings.ToLower(filepath.Ext(strings.TrimRight(path, `/\`))) {
	case ".parquet", ".pq", ".parq":
		return "parquet"
	case ".b2d", ".b2z":
		return "ctable"
	case ".b2nd", ".b2frame", ".b2f":
		return "array"
	}
	return ""
}

// openPath opens a file, directory table or glob by its extension.
func openPath(path string) (planner.Table, error) {
	switch tableKind(path) {
	case "parquet":
		return parquet.Open(path)
	case "ctable":
		return openCTable(strings.TrimRight(path, `/\`))
	case "array":
		return ctable.OpenArray(path)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory; name a table file, a .b2d table or a glob such as '%s/*.parquet'", path, path)
	}
	return nil, fmt.Errorf("%s: unknown table format %q (expected .parquet, .b2d, .b2z, .b2nd or .b2frame)", path, filepath.Ext(path))
}

// ctableStamps records, per opened CTable, the file information of its
// path at open: a DML statement reopens the table only when the path names
// another directory or file since (another process wrote it).
var ctableStamps sync.Map // *ctable.Table → os.FileInfo

// unchanged reports whether t's path still names what it was opened from.
func unchanged(t *ctable.Table) bool {
	v, ok := ctableStamps.Load(t)
	if !ok {
		return false
	}
	now, err := os.Stat(t.Path())
	return err == nil && os.SameFile(v.(os.FileInfo), now)
}

// openCTable opens a CTable so that it is one version of it: a write
// publishes a new .b2d by exchanging directories, and Open reads the
// manifest and _valid_rows one after the other, so an exchange between the
// two would mix versions. Open is retried when the path named another
// directory (or file) after it than before.
func openCTable(path string) (planner.Table, error) {
	for attempt := 0; ; attempt++ {
		before, _ := os.Stat(path)
		t, err := ctable.Open(path)
		after, _ := os.Stat(path)
		if before != nil && after != nil && os.SameFile(before, after) || attempt == 10 {
			if err != nil {
				return nil, err
			}
			if after != nil {
				ctableStamps.Store(t, after)
			}
			return t, nil
		}
		if t != nil {
			t.Close()
		}
	}
}

// metadataTable lists the table- and column-level vlmeta of a blosc2 table
// or array as rows (scope, key, value); it closes t.
func metadataTable(path string, t planner.Table) (planner.Table, error) {
	defer func() {
		if c, ok := t.(interface{ Close() error }); ok {
			c.Close()
		}
	}()
	m, ok := t.(interface{ Metadata() []ctable.MetaEntry })
	if !ok {
		return nil, fmt.Errorf("%s: b2_metadata reads blosc2 files (.b2d, .b2z, .b2nd, .b2frame)", path)
	}
	mt := &memTable{schema: columnar.Schema{
		{Name: "scope", Type: columnar.TVarchar},
		{Name: "key", Type: columnar.TVarchar},
		{Name: "value", Type: columnar.TVarchar},
	}}
	for _, e := range m.Metadata() {
		mt.rows = append(mt.rows, []columnar.Value{columnar.StringValue(e.Scope), columnar.StringValue(e.Key), columnar.StringValue(e.Value)})
	}
	return mt, nil
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
		if tableKind(name) == "" {
			continue
		}
		if err := db.RegisterTable(strings.TrimSuffix(name, filepath.Ext(name)), filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("registering %s: %w", name, err)
		}
	}
	return nil
}
