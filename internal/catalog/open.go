package catalog

import (
	"fmt"
	"os"
	"path/filepath"

	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/planner"
)

// Kind classifies a path by its extension: "parquet", "ctable"
// (.b2d directory or .b2z file), "array" (.b2nd, .b2frame, .b2f), "csv",
// "json" (compressed ones too: x.csv.gz) or "".
func Kind(path string) string {
	if k := textKind(path); k != "" {
		return k
	}
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

// OpenFile opens a file, directory table or glob by its extension.
func OpenFile(path string) (planner.Table, error) {
	switch Kind(path) {
	case "parquet":
		return parquet.Open(path)
	case "ctable":
		return OpenCTable(strings.TrimRight(path, `/\`))
	case "array":
		return ctable.OpenArray(path)
	case "csv", "json":
		return openText(path)
	}
	if k := contentKind(path); k != "" {
		return openKind(k, path)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory; name a table file, a .b2d table or a glob such as '%s/*.parquet'", path, path)
	}
	return nil, fmt.Errorf("%s: unknown table format %q (expected .parquet, .csv, .json, .ndjson, .b2d, .b2z, .b2nd or .b2frame)", path, filepath.Ext(path))
}

// Forget drops the open-time stamp of a CTable version replaced by a
// write (see Unchanged).
func Forget(t *ctable.Table) { ctableStamps.Delete(t) }

// ctableStamps records, per opened CTable, the file information of its
// path at open: a DML statement reopens the table only when the path names
// another directory or file since (another process wrote it).
var ctableStamps sync.Map // *ctable.Table → os.FileInfo

// Unchanged reports whether t's path still names what it was opened from.
func Unchanged(t *ctable.Table) bool {
	v, ok := ctableStamps.Load(t)
	if !ok {
		return false
	}
	now, err := os.Stat(t.Path())
	return err == nil && os.SameFile(v.(os.FileInfo), now)
}

// OpenCTable opens a CTable so that it is one version of it: a write
// publishes a new .b2d by exchanging directories, and Open reads the
// manifest and _valid_rows one after the other, so an exchange between the
// two would mix versions. Open is retried when the path named another
// directory (or file) after it than before.
func OpenCTable(path string) (planner.Table, error) {
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
	mt := &MemTable{schema: columnar.Schema{
		{Name: "scope", Type: columnar.TVarchar},
		{Name: "key", Type: columnar.TVarchar},
		{Name: "value", Type: columnar.TVarchar},
	}}
	for _, e := range m.Metadata() {
		mt.rows = append(mt.rows, []columnar.Value{columnar.StringValue(e.Scope), columnar.StringValue(e.Key), columnar.StringValue(e.Value)})
	}
	return mt, nil
}
