package b2sql

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// Writes: COPY (query) TO 'file.parquet', CREATE [OR REPLACE] TABLE name AS
// query and DROP TABLE name. A file is written to a temporary name and
// renamed into place when complete, so readers (including queries already
// scanning a replaced table, which keep their open file) never see a
// partial file. Writes to one table or file are serialized; reads never
// wait for them.

// writeLocks serializes writes per target (table name or file path).
type writeLocks struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

// lock takes the lock of key and returns its unlock function.
func (w *writeLocks) lock(key string) func() {
	w.mu.Lock()
	if w.locks == nil {
		w.locks = map[string]*sync.Mutex{}
	}
	m, ok := w.locks[key]
	if !ok {
		m = &sync.Mutex{}
		w.locks[key] = m
	}
	w.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// countRows is the one-row result of a write: the rows written, as DuckDB
// reports them.
func countRows(n int64) *Rows {
	return valueRows([]Column{{Name: "Count", Type: columnar.TInt64}}, [][]columnar.Value{{columnar.IntValue(columnar.TInt64, n)}})
}

func (db *DB) readOnlyError(pos sql.Pos, what string) error {
	return &Error{Pos: Pos{pos.Line, pos.Col}, Kind: ErrReadOnly, Msg: what + ": the database is read-only"}
}

// copyTo runs COPY … TO 'path'.
func (db *DB) copyTo(ctx context.Context, c *sql.Copy, args []columnar.Value) (*Rows, error) {
	if db.settings.readOnly {
		return nil, db.readOnlyError(c.PathPos, "COPY")
	}
	if c.PathParam {
		// The path's value comes after the query's.
		at := Pos{c.PathPos.Line, c.PathPos.Col}
		if len(args) != sql.NumParams(c.Query)+1 {
			return nil, &Error{Pos: at, Kind: ErrParam, Msg: fmt.Sprintf("statement has %d parameters, %d arguments given", sql.NumParams(c.Query)+1, len(args))}
		}
		v := args[len(args)-1]
		if v.Null || v.Type.ID != columnar.Varchar {
			return nil, &Error{Pos: at, Kind: ErrParam, Msg: fmt.Sprintf("COPY TO ?: the path must be a string, got %s", v.Type)}
		}
		c2 := *c
		c2.Path, c2.PathParam, args = v.S, false, args[:len(args)-1]
		c = &c2
	}
	if strings.ContainsAny(c.Path, "*?[") {
		return nil, &Error{Pos: Pos{c.PathPos.Line, c.PathPos.Col}, Kind: ErrUnsupported, Msg: fmt.Sprintf("COPY TO %q: a glob is not a file name", c.Path)}
	}
	path, err := db.confine(c.Path)
	if err != nil {
		return nil, err
	}
	defer db.writes.lock("file:" + filepath.Clean(path))()
	var n int64
	if tableKind(path) == "ctable" {
		unlock, lerr := lockFile(strings.TrimRight(path, `/\`))
		if lerr != nil {
			return nil, lerr
		}
		defer unlock()
		// err is the function's: a := here would shadow it and drop the
		// writer's error (COPY reported 0 rows and no error).
		n, err = db.writeCTable(ctx, c.Query, args, strings.TrimRight(path, `/\`))
	} else {
		n, err = db.writeParquet(ctx, c.Query, args, path, c.Compression)
	}
	if err != nil {
		return nil, err
	}
	return countRows(n), nil
}

// createTableAs runs CREATE [OR REPLACE] TABLE name AS query: the result
// is written as name.b2d (or .b2z, .parquet with WITH (FORMAT …)) in the
// DB's directory — a temporary directory removed by Close for a DB without
// one, where the default is an in-memory table — then registered.
func (db *DB) createTableAs(ctx context.Context, c *sql.CreateTableAs, args []columnar.Value) (*Rows, error) {
	at := Pos{c.NamePos.Line, c.NamePos.Col}
	if db.settings.readOnly {
		return nil, db.readOnlyError(c.NamePos, "CREATE TABLE")
	}
	if err := checkTableName(c.Name, c.NamePos); err != nil {
		return nil, err
	}
	format, err := db.tableFormat(c.Options, true)
	if err != nil {
		return nil, err
	}
	key := strings.ToLower(c.Name)
	defer db.writes.lock("table:" + key)()
	if _, exists := (catalog{db}).Table(c.Name); exists {
		if c.IfNotExists {
			return countRows(0), nil
		}
		if !c.Replace {
			return nil, &Error{Pos: at, Kind: ErrTableExists, Msg: fmt.Sprintf("table %q already exists (use CREATE OR REPLACE TABLE)", c.Name)}
		}
	}
	if format == "memory" {
		n, err := db.createMemTableAs(ctx, c, args)
		if err != nil {
			return nil, err
		}
		return countRows(n), nil
	}
	dir, err := db.writeDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, c.Name+"."+format)
	defer db.writes.lock("file:" + filepath.Clean(path))()
	unlock, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var n int64
	if format == "parquet" {
		n, err = db.writeParquet(ctx, c.Query, args, path, "")
	} else {
		n, err = db.writeCTable(ctx, c.Query, args, path)
	}
	if err != nil {
		return nil, err
	}
	t, err := openPath(path)
	if err != nil {
		return nil, err
	}
	// Queries still scanning a replaced table keep its open file; it is
	// closed with the DB.
	db.registerNew(key, c.Name, t)
	return countRows(n), nil
}

// createMemTableAs runs the query into a new in-memory table.
func (db *DB) createMemTableAs(ctx context.Context, c *sql.CreateTableAs, args []columnar.Value) (int64, error) {
	built, names, err := db.plan(c.Query, false, args)
	if err != nil {
		return 0, err
	}
	rows, err := newRows(ctx, db, built, names)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	schema := make(columnar.Schema, len(rows.cols))
	for i, col := range rows.cols {
		schema[i] = columnar.Field{Name: col.Name, Type: col.Type, Nullable: true}
	}
	var vals [][]columnar.Value
	for rows.Next() {
		vals = append(vals, append([]columnar.Value(nil), rows.Values()...))
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	t := &memTable{schema: schema, rows: vals}
	db.registerNew(strings.ToLower(c.Name), c.Name, t)
	return int64(len(vals)), nil
}

// dropTable runs DROP TABLE: the name is unregistered; files in the DB's
// own temporary directory are deleted, others are left alone.
func (db *DB) dropTable(d *sql.DropTable) (*Rows, error) {
	if db.settings.readOnly {
		return nil, db.readOnlyError(d.NamePos, "DROP TABLE")
	}
	key := strings.ToLower(d.Name)
	defer db.writes.lock("table:" + key)()
	db.mu.Lock()
	old, ok := db.tables[key]
	if ok {
		delete(db.tables, key)
		delete(db.names, key)
		db.life.retired = append(db.life.retired, old)
		for name, ix := range db.memIndexes {
			if ix.table == key {
				delete(db.memIndexes, name) // an index goes with its table
			}
		}
	}
	tmp, dir := db.tmpDir, db.dir
	db.mu.Unlock()
	if !ok {
		if d.IfExists {
			return valueRows(nil, nil), nil
		}
		return nil, &Error{Pos: Pos{d.NamePos.Line, d.NamePos.Col}, Kind: ErrUnknownTable,
			Msg: fmt.Sprintf("unknown table %q", d.Name)}
	}
	if tmp != "" {
		// Unlinking leaves running scans their open files.
		os.Remove(filepath.Join(tmp, d.Name+".parquet"))
		os.Remove(filepath.Join(tmp, d.Name+".b2z"))
		os.RemoveAll(filepath.Join(tmp, d.Name+".b2d"))
	}
	if dir != "" {
		// In a directory database a table is its file: leaving it would
		// bring the table back at the next open. Only the table's own
		// file in that directory goes, never a file registered from
		// elsewhere.
		if p := ownFile(old, dir); p != "" {
			if err := os.RemoveAll(p); err != nil {
				return nil, fmt.Errorf("DROP TABLE %s: %w", d.Name, err)
			}
		}
	}
	return valueRows(nil, nil), nil
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

// writeDir is where CREATE TABLE writes: the DB's directory, or a private
// temporary directory (inside the root, with WithRoot) made on first use.
func (db *DB) writeDir() (string, error) {
	if db.dir != "" {
		return db.dir, nil
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.life.closed {
		return "", ErrClosed
	}
	if db.tmpDir == "" {
		dir, err := os.MkdirTemp(db.settings.root, ".b2sql-tables-")
		if err != nil {
			return "", fmt.Errorf("b2sql: CREATE TABLE: %w", err)
		}
		db.tmpDir = dir
	}
	return db.tmpDir, nil
}

// tableWriter is what a COPY target streams batches into.
type tableWriter interface {
	Write(*columnar.Batch) error
	Close() error
}

// writeParquet runs q and streams its result into a Parquet file at path,
// returning the rows written. On any error (the context's included) the
// partial file is removed and a previous file at path is left intact.
func (db *DB) writeParquet(ctx context.Context, q *sql.Query, args []columnar.Value, path, compression string) (int64, error) {
	opts := parquet.WriterOptions{}
	switch compression {
	case "zstd":
		opts.Codec = parquet.Zstd
	case "uncompressed":
		opts.Codec = parquet.Uncompressed
	}
	return db.writeQuery(ctx, q, args, func(schema columnar.Schema) (tableWriter, func(), error) {
		w, err := parquet.NewWriter(path, schema, opts)
		if err != nil {
			return nil, nil, err
		}
		return w, w.Abort, nil
	})
}

// writeCTable runs q and streams its result into a python-blosc2 CTable at
// path (.b2d directory or .b2z file; string flavours chosen from the data,
// SUMMARY indexes built on close), atomically like writeParquet.
func (db *DB) writeCTable(ctx context.Context, q *sql.Query, args []columnar.Value, path string) (int64, error) {
	return db.writeQuery(ctx, q, args, func(schema columnar.Schema) (tableWriter, func(), error) {
		w, err := ctable.Create(path, schema, ctable.CreateOptions{})
		if err != nil {
			return nil, nil, err
		}
		return w, func() { w.Abort() }, nil
	})
}

// writeQuery runs q and streams its batches into the writer open makes for
// the result's schema; on any error the writer is aborted.
func (db *DB) writeQuery(ctx context.Context, q *sql.Query, args []columnar.Value, open func(columnar.Schema) (tableWriter, func(), error)) (int64, error) {
	built, names, err := db.plan(q, false, args)
	if err != nil {
		return 0, err
	}
	rows, err := newRows(ctx, db, built, names)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	schema := make(columnar.Schema, len(rows.cols))
	for i, c := range rows.cols {
		schema[i] = columnar.Field{Name: c.Name, Type: c.Type, Nullable: true}
	}
	w, abort, err := open(schema)
	if err != nil {
		return 0, err
	}
	var n int64
	for b := rows.NextBatch(); b != nil; b = rows.NextBatch() {
		if err := w.Write(b); err != nil {
			abort()
			return 0, err
		}
		n += int64(b.Live())
	}
	if err := rows.Err(); err != nil {
		abort()
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	return n, nil
}
