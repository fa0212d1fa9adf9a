package dml

import (
	"context"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/sql"
)

// tableWriter is what a COPY target streams batches into.
type tableWriter interface {
	Write(*columnar.Batch) error
	Close() error
}

// writeParquet runs q and streams its result into a Parquet file at path,
// returning the rows written. On any error (the context's included) the
// partial file is removed and a previous file at path is left intact.
func writeParquet(ctx context.Context, env *Env, q *sql.Query, args []columnar.Value, path, compression string) (int64, error) {
	opts := parquet.WriterOptions{}
	switch compression {
	case "zstd":
		opts.Codec = parquet.Zstd
	case "uncompressed":
		opts.Codec = parquet.Uncompressed
	}
	return writeQuery(ctx, env, q, args, func(schema columnar.Schema) (tableWriter, func(), error) {
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
func writeCTable(ctx context.Context, env *Env, q *sql.Query, args []columnar.Value, path string) (int64, error) {
	return writeQuery(ctx, env, q, args, func(schema columnar.Schema) (tableWriter, func(), error) {
		return createCTable(path, schema, false)
	})
}

// createCTable opens a CTable writer at path (.b2z when zip) for the
// schema; a column holding an unnamed STRUCT is refused first.
func createCTable(path string, schema columnar.Schema, zip bool) (tableWriter, func(), error) {
	if err := refuseUnnamedStruct(schema, "a CTable column (python-blosc2's struct fields have names)"); err != nil {
		return nil, nil, err
	}
	w, err := ctable.Create(path, schema, ctable.CreateOptions{Zip: zip})
	if err != nil {
		return nil, nil, err
	}
	return w, func() { w.Abort() }, nil
}

// writeQuery runs q and streams its batches into the writer open makes for
// the result's schema; on any error the writer is aborted.
func writeQuery(ctx context.Context, env *Env, q *sql.Query, args []columnar.Value, open func(columnar.Schema) (tableWriter, func(), error)) (int64, error) {
	built, names, err := env.plan(q, args)
	if err != nil {
		return 0, err
	}
	w, abort, err := open(schemaOf(built, names))
	if err != nil {
		built.Root.Close()
		return 0, err
	}
	var n int64
	err = Drive(ctx, env.Cat, built, func(b *columnar.Batch) error {
		n += int64(b.Live())
		return w.Write(b)
	})
	if err != nil {
		abort()
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	return n, nil
}

// refuseUnnamedStruct refuses a schema with a column that is or holds an
// unnamed STRUCT (row(…), (a, b)) for what cannot keep one.
func refuseUnnamedStruct(schema columnar.Schema, what string) error {
	for _, f := range schema {
		if f.Type.HoldsUnnamedStruct() {
			return fmt.Errorf("column %q is of type %s: an unnamed STRUCT cannot be %s; name its fields ({'a': …, 'b': …}, or a cast to STRUCT(a …, b …))", f.Name, f.Type, what)
		}
	}
	return nil
}
