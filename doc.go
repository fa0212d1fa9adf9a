// Package b2sql is the embedded API of the b2sql query engine: SQL with
// DuckDB semantics over Parquet (and blosc2) files, in pure Go.
//
// # Opening
//
// Open takes a directory (every table file in it is registered under its
// file stem), a single file, or "" for an empty in-memory database; more
// tables can be added with DB.RegisterTable, and SQL can name files
// directly (FROM 'data/x.parquet', read_parquet('logs/*.parquet')).
// Options set the parallelism (WithThreads), a memory budget
// (WithMemoryLimit, enforced by the operators that hold data), read-only mode (WithReadOnly) and a
// root directory outside of which no file may be read or written
// (WithRoot: use it when the SQL comes from users).
//
//	db, err := b2sql.Open("data/", b2sql.WithThreads(4))
//	rows, err := db.Query(ctx, "SELECT category, count(*) FROM events WHERE ts >= ? GROUP BY 1", since)
//	for rows.Next() {
//		var cat string
//		var n int64
//		err = rows.Scan(&cat, &n)
//	}
//	err = rows.Err()
//
// # Results
//
// Rows streams: nothing is buffered beyond one executor batch, blocking
// work (sort, aggregation) starts with the first Next, and Close stops the
// scan at once. Rows.Scan converts cells into Go values (every int, uint
// and float width, string, []byte, bool, time.Time, time.Duration, any,
// sql.Null* and other sql.Scanner; DATE and TIMESTAMP scan into time.Time
// in UTC, TIME into a time.Time on 0001-01-01 UTC as the DuckDB driver
// gives it (the database/sql driver's value too) or a time.Duration since
// midnight, INTERVAL into a time.Duration); Rows.Values gives the engine's
// own cells; Rows.NextBatch the columnar batches; Rows.RecordReader Arrow
// record batches, sharing 64-bit fixed-width columns with the engine
// instead of copying them.
//
// # Parameters
//
// Query, Exec and prepared statements (DB.Prepare) take parameters as
// DuckDB does: ? and $1, $2, … (a $n may repeat; a ? takes one more than
// the highest number before it) take the arguments in order; $name
// markers take arguments given by name with database/sql's sql.Named
// ("name", value), through this API and the database/sql driver alike.
// The arguments become typed constants of the bound plan, never SQL
// text, so a string argument cannot change the statement; a count
// mismatch or a name without a value is an *Error of kind ErrParam
// positioned at the marker.
//
// # Writes
//
// Exec (and Query) also run the statements that write files:
// COPY (query) TO 'out.parquet' [(FORMAT parquet, COMPRESSION zstd)] or TO
// 'out.b2d' / 'out.b2z' (a python-blosc2 CTable, SUMMARY indexes built),
// CREATE [OR REPLACE] TABLE name AS query, CREATE TABLE name (columns …),
// INSERT, REPLACE, DELETE, UPDATE, COPY table FROM 'file', ATTACH 'dir'
// AS db (the directory as a database of its own: db.t is its file t.b2d)
// and DROP TABLE name (unregisters; deletes only files of the DB's
// temporary directory). New tables are name.b2d CTables in the DB's
// directory (Open on a directory, or DB.Attach), in-memory tables in a DB
// without one; WITH (FORMAT b2d | b2z | parquet | memory) chooses. A
// CTable change is built beside the table and swapped in atomically: a
// reader sees the table before or after a statement, never a mix, and a
// writer killed midway leaves it as it was. Writes to one table are
// serialized, across processes through a lock file ".<name>.lock" beside
// it; queries already reading a replaced version finish on it. Rows that
// break a column's declared constraint fail with ErrConstraint. A
// read-only DB refuses writes with ErrReadOnly; with WithRoot, targets
// must lie inside the root too.
//
// # Transactions
//
// Each statement commits on its own unless BEGIN [TRANSACTION] (START
// TRANSACTION [READ ONLY | READ WRITE]) opens a transaction, ended by
// COMMIT (END) or ROLLBACK (ABORT); a database/sql Tx (BeginTx, Commit,
// Rollback) is the same on its connection, and DB's own methods share one
// session, so a BEGIN through DB.Exec holds for the DB's later statements.
// As in DuckDB, the transaction's statements see its own changes, other
// sessions see none of them until COMMIT publishes them all at once, and
// it keeps reading the tables as they were when it began. COMMIT fails
// with ErrConflict, applying nothing, when another session committed a
// change to a table (or view, sequence, macro, type, index name) this
// transaction changed too. An error while a statement runs aborts the
// transaction: later statements fail with "Current transaction is
// aborted (please ROLLBACK)" until ROLLBACK, and its COMMIT rolls back;
// errors found before running (syntax, an unknown name) do not. A write
// in a READ ONLY transaction, BEGIN within one and COMMIT or ROLLBACK
// without one fail with ErrTransaction. Closing a connection (or the DB)
// rolls back its open transaction, and so does database/sql when it hands
// a pooled connection to another caller.
//
// What is transactional: rows of in-memory tables and of CTables
// (.b2d/.b2z: INSERT, UPDATE, DELETE, COPY … FROM) and the names of
// tables, views, sequences, macros, types, schemas and in-memory index
// names (CREATE, DROP). A CTable changed in a transaction gets a staged
// version in a hidden directory beside its file, which the transaction
// reads and changes; COMMIT publishes each staged file atomically over
// its table (a conflict, or ROLLBACK, leaves the files as they were and
// removes the staged ones). Several CTables are published one after the
// other: an I/O error in the middle of a COMMIT can leave the first ones
// published. A change of a CTable that another session or process
// changed since the transaction began is a conflict at once. A file
// table created in a transaction (CREATE TABLE, CREATE TABLE … AS) is
// staged the same way, and a dropped one loses its file at COMMIT. What
// is not transactional, as in DuckDB: SET, secrets, prepared statements
// and sequence values (nextval is not given back), and COPY … TO, which
// writes its file at once. CREATE INDEX, DROP INDEX and REINDEX of a
// CTable work on its staged version too (a copy of the table, its
// members linked, when the transaction had not changed it). ATTACH
// inside a transaction registers its database and tables for the
// transaction, published by COMMIT and forgotten by ROLLBACK, as in
// DuckDB (a missing directory it creates stays). A transaction may write
// to several attached databases (DuckDB allows one per transaction):
// COMMIT publishes their files as it publishes the default database's.
//
// # Errors
//
// SQL errors are *Error, one type from the parser to the API (the sql
// package's *sql.Error): Pos (line and column in the statement), Kind (a
// sentinel such as ErrUnknownColumn, for errors.Is) and Msg; Error() is one
// line, "line 1:8: unknown column "x"". A cancelled context ends a query
// with exactly ctx.Err(), within milliseconds; a closed DB with ErrClosed.
//
// # Concurrency
//
// A DB is safe for concurrent use by many goroutines, and so is a Stmt.
// A Rows is read by one goroutine, but may be closed from any. DB.Close
// cancels the queries still running.
//
// # database/sql
//
// Importing the package registers the driver "b2sql" (see ParseDSN):
//
//	import _ "github.com/b2sql/b2sql"
//	db, err := sql.Open("b2sql", "data/?threads=2&readonly=true")
//
// It supports contexts (cancellation), prepared statements with ?, column
// types (DatabaseTypeName, ScanType, Nullable, DecimalSize), RowsAffected
// for writes and transactions (see Transactions; isolation levels up to
// snapshot, which is what b2sql gives). Each connection has its own
// settings and transaction: SET on one leaves the others alone. NewConnector shares
// one *DB between both APIs.
//
// # Inside
//
// This package is the API only. internal/engine runs statements (a session
// per connection), internal/dml the statements that write, and
// internal/catalog holds the names and is the only package that opens files
// by format.
package b2sql
