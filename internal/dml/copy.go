package dml

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
)

// Writes of whole files: COPY (query) TO 'file', CREATE [OR REPLACE] TABLE
// name AS query and DROP TABLE name. A file is written to a temporary name
// and renamed into place when complete, so readers (including queries
// already scanning a replaced table, which keep their open file) never see
// a partial file. Writes to one table or file are serialized; reads never
// wait for them.

// copyTo runs COPY … TO 'path'.
func copyTo(ctx context.Context, env *Env, c *sql.Copy, args []columnar.Value) (int64, error) {
	cat := env.Cat
	if cat.ReadOnly() {
		return 0, catalog.ReadOnlyError(c.PathPos, "COPY")
	}
	if c.PathParam {
		// The path's value comes after the query's.
		at := c.PathPos
		if len(args) != sql.NumParams(c.Query)+1 {
			return 0, &sql.Error{Pos: at, Kind: sql.ErrParam, Msg: fmt.Sprintf("statement has %d parameters, %d arguments given", sql.NumParams(c.Query)+1, len(args))}
		}
		v := args[len(args)-1]
		if v.Null || v.Type.ID != columnar.Varchar {
			return 0, &sql.Error{Pos: at, Kind: sql.ErrParam, Msg: fmt.Sprintf("COPY TO ?: the path must be a string, got %s", v.Type)}
		}
		c2 := *c
		c2.Path, c2.PathParam, args = v.S, false, args[:len(args)-1]
		c = &c2
	}
	if strings.ContainsAny(c.Path, "*?[") {
		return 0, &sql.Error{Pos: c.PathPos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("COPY TO %q: a glob is not a file name", c.Path)}
	}
	spec, err := copySpecOf(c.Path, c.Options) // copy_format.go
	if err != nil {
		return 0, err
	}
	if spec.format == "csv" || spec.format == "json" {
		spec.open = zonedText(env.Zone, spec.tsFormat, spec.open) // copy_zone.go
	}
	if storage.IsRemote(c.Path) {
		return copyToRemote(ctx, env, c, spec, args) // copy_remote.go
	}
	path, err := cat.Confine(c.Path)
	if err != nil {
		return 0, err
	}
	defer cat.Lock("file:" + filepath.Clean(path))()
	if spec.dir != nil {
		return copyToDir(ctx, env, c, spec, spec.dir, path, args) // copy_partition.go
	}
	if spec.format == "ctable" {
		unlock, err := catalog.LockFile(strings.TrimRight(path, `/\`))
		if err != nil {
			return 0, err
		}
		defer unlock()
	}
	return writeQuery(ctx, env, c.Query, args, func(schema columnar.Schema) (tableWriter, func(), error) {
		return spec.open(path, schema)
	})
}

// createTableAs runs CREATE [OR REPLACE] TABLE name AS query: the result
// is written as name.b2d (or .b2z, .parquet with WITH (FORMAT …)) in the
// DB's directory — a temporary directory removed by Close for a DB without
// one, where the default is an in-memory table — then registered.
func createTableAs(ctx context.Context, env *Env, c *sql.CreateTableAs, args []columnar.Value) (int64, error) {
	cat := env.Cat
	if cat.ReadOnly() {
		return 0, catalog.ReadOnlyError(c.NamePos, "CREATE TABLE")
	}
	if err := checkTableName(c.Name, c.NamePos); err != nil {
		return 0, err
	}
	format, err := TableFormat(cat, c.Name, c.Options, true)
	if err != nil {
		return 0, err
	}
	defer cat.Lock("table:" + strings.ToLower(c.Name))()
	if msg := sql.TempMismatch(cat, c.Name, c.Temp); msg != "" {
		return 0, &sql.Error{Pos: c.NamePos, Kind: catalog.ErrTableExists, Msg: msg}
	}
	if _, exists := cat.Table(c.Name); exists {
		if c.IfNotExists {
			return 0, nil
		}
		if !c.Replace {
			return 0, &sql.Error{Pos: c.NamePos, Kind: catalog.ErrTableExists, Msg: fmt.Sprintf("table %q already exists (use CREATE OR REPLACE TABLE)", c.Name)}
		}
	}
	if format == "memory" {
		return createMemTableAs(ctx, env, c, args)
	}
	path, err := cat.TablePath(c.Name, format)
	if err != nil {
		return 0, err
	}
	defer cat.Lock("file:" + filepath.Clean(path))()
	unlock, err := catalog.LockFile(path)
	if err != nil {
		return 0, err
	}
	defer unlock()
	if path, err = cat.StagePath(c.Name, path); err != nil { // catalog/tx_files.go
		return 0, err
	}
	var n int64
	if format == "parquet" {
		n, err = writeParquet(ctx, env, c.Query, args, path, "")
	} else {
		n, err = writeCTable(ctx, env, c.Query, args, path)
	}
	if err != nil {
		return 0, err
	}
	t, err := catalog.OpenFile(path)
	if err != nil {
		return 0, err
	}
	// Queries still scanning a replaced table keep its open file; it is
	// closed with the DB.
	cat.Put(c.Name, t)
	return n, nil
}

// createMemTableAs runs the query into a new in-memory table.
func createMemTableAs(ctx context.Context, env *Env, c *sql.CreateTableAs, args []columnar.Value) (int64, error) {
	built, names, err := env.plan(c.Query, args)
	if err != nil {
		return 0, err
	}
	schema := schemaOf(built, names)
	// As DuckDB: "a table cannot be created from an unnamed struct".
	if err := refuseUnnamedStruct(schema, "a table column"); err != nil {
		return 0, &sql.Error{Pos: c.NamePos, Kind: sql.ErrType, Msg: err.Error()}
	}
	var vals [][]columnar.Value
	err = Drive(ctx, env.Cat, built, func(b *columnar.Batch) error {
		for k := 0; k < b.Live(); k++ {
			r := b.Row(k)
			row := make([]columnar.Value, len(b.Cols))
			for i, v := range b.Cols {
				row[i] = v.Value(r)
			}
			vals = append(vals, row)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	env.Cat.Put(c.Name, catalog.NewMemTable(schema, vals).AsTemp(c.Temp).Numbered())
	return int64(len(vals)), nil
}

// dropTable runs DROP TABLE: the name is unregistered; files in the DB's
// own temporary directory are deleted, and in a directory database the
// table's own file in it.
func dropTable(cat *catalog.Catalog, d *sql.DropTable) error {
	if cat.ReadOnly() {
		return catalog.ReadOnlyError(d.NamePos, "DROP TABLE")
	}
	defer cat.Lock("table:" + strings.ToLower(d.Name))()
	if msg := sql.CatalogMismatch(cat, d.Catalog, d.Name); msg != "" {
		if d.IfExists {
			return nil // temp.t does not exist when t is not temporary
		}
		return &sql.Error{Pos: d.NamePos, Kind: sql.ErrUnknownTable, Msg: msg}
	}
	old, ok := cat.DropTable(d.Name)
	tmp, dir := cat.TempDir(), cat.TableDir(d.Name)
	if !ok {
		if d.IfExists {
			return nil
		}
		return &sql.Error{Pos: d.NamePos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("unknown table %q", d.Name)}
	}
	if tmp != "" {
		// Unlinking leaves running scans their open files. Inside a
		// transaction the files go at COMMIT (catalog.Unlink).
		cat.Unlink(false, filepath.Join(tmp, d.Name+".parquet"), filepath.Join(tmp, d.Name+".b2z"), filepath.Join(tmp, d.Name+".b2d"))
	}
	if dir != "" {
		// In a directory database a table is its file: leaving it would
		// bring the table back at the next open. Only the table's own
		// file in that directory goes, never a file registered from
		// elsewhere.
		if p := ownFile(old, dir); p != "" {
			if err := cat.Unlink(true, p); err != nil {
				return fmt.Errorf("DROP TABLE %s: %w", d.Name, err)
			}
		}
	}
	return nil
}

// ownFile is the file or directory backing table t when it lies directly in
// dir (a directory database's table), else "".
func ownFile(t planner.Table, dir string) string {
	var p string
	switch x := t.(type) {
	case interface{ Path() string }:
		p = x.Path()
	case interface{ Files() []string }:
		if f := x.Files(); len(f) == 1 {
			p = f[0]
		}
	}
	if p == "" {
		return ""
	}
	ap, err1 := filepath.Abs(p)
	ad, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil || filepath.Dir(ap) != ad {
		return ""
	}
	return ap
}
