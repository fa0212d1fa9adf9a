package catalog

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
)

// inspect answers a Parquet inspection function (parquet_metadata,
// parquet_schema, parquet_file_metadata, parquet_kv_metadata) over a path,
// a glob or a remote location: each file is opened on its own (files of a
// glob need not share a schema) and its footer listed under the name the
// query spelled, as DuckDB lists them.
func (c *Catalog) inspect(fn, path string) (planner.Table, error) {
	files, err := c.expand(&sql.FileCall{Func: fn, Paths: []string{path}})
	if err != nil {
		return nil, err
	}
	out := &MemTable{}
	for _, f := range files {
		var t planner.Table
		if storage.IsRemote(f.Path) {
			t, err = c.openRemote("read_parquet", f.Path)
		} else {
			t, err = c.OpenConfined(f.Path)
		}
		if err != nil {
			return nil, err
		}
		schema, rows, err := inspectFile(fn, f.Name, t)
		if err != nil {
			return nil, err
		}
		out.schema = schema
		out.rows = append(out.rows, rows...)
	}
	return out, nil
}

// inspectFile lists one opened file's footer, named name; it closes t.
func inspectFile(fn, name string, t planner.Table) (columnar.Schema, [][]columnar.Value, error) {
	defer func() {
		if c, ok := t.(interface{ Close() error }); ok {
			c.Close()
		}
	}()
	pt, ok := t.(*parquet.Table)
	if !ok {
		return nil, nil, fmt.Errorf("%s: %s reads Parquet files", name, fn)
	}
	schema, rows, err := pt.Inspect(fn)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range rows {
		r[0] = columnar.StringValue(name) // file_name, as the query spelled it
	}
	return schema, rows, nil
}
