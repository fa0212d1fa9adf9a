// Package catalog holds a database's names and what they open: tables
// (Parquet files and globs, python-blosc2 CTables and arrays, in-memory
// tables), views, index names, the directory new tables go to (Open on a
// directory, DB.Attach), the databases ATTACH makes (databases.go),
// confinement to a root directory (WithRoot), the write locks, column
// constraints and the life cycle of everything it opened.
// It is the only package that opens files by format (OpenFile). A
// python-blosc2 remote reference archive (.b2z saved by RemoteCTable.save)
// opens as the table it names when that is a b2z table or a Parquet file,
// under the same remote and confinement rules as a path in a query
// (reference.go).
//
// It implements planner.Catalog and planner.ViewCatalog for the binder.
// It is below the statement path (internal/engine, internal/dml) and never
// imports it; errors are *sql.Error (positioned) or the kinds of errors.go.
package catalog
