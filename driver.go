package b2sql

import (
	"context"
	"database/sql"
	"database/sql/driver"

	"github.com/b2sql/b2sql/internal/engine"
)

// DriverName is the name under which the package registers its
// database/sql driver. Importing the package for its side effect is enough:
//
//	import _ "github.com/b2sql/b2sql"
//
//	db, err := sql.Open("b2sql", "data/?threads=2")
//
// See ParseDSN for the data source name.
const DriverName = "b2sql"

func init() { sql.Register(DriverName, Driver{}) }

// Driver is the database/sql driver. Connections opened through one
// sql.DB share a single *DB (one set of tables); each connection has its
// own settings (SET threads on one leaves the others alone), starting from
// the DB's. The sql.DB's Close closes the DB.
type Driver struct{}

var (
	_ driver.Driver        = Driver{}
	_ driver.DriverContext = Driver{}
)

// Open opens a connection with its own *DB, closed with the connection.
// database/sql uses OpenConnector instead.
func (Driver) Open(dsn string) (driver.Conn, error) {
	db, err := openDSN(dsn)
	if err != nil {
		return nil, err
	}
	return &conn{db: db, sess: db.sess, owned: true}, nil
}

// OpenConnector opens the *DB named by dsn, shared by every connection.
func (Driver) OpenConnector(dsn string) (driver.Connector, error) {
	db, err := openDSN(dsn)
	if err != nil {
		return nil, err
	}
	return &connector{db: db, owned: true}, nil
}

func openDSN(dsn string) (*DB, error) {
	path, opts, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return Open(path, opts...)
}

// NewConnector returns a connector over an open DB, for sql.OpenDB: a
// program can then use the same tables through both APIs. Closing the
// sql.DB does not close db.
func NewConnector(db *DB) driver.Connector { return &connector{db: db} }

type connector struct {
	db    *DB
	owned bool
}

func (c *connector) Connect(context.Context) (driver.Conn, error) {
	if c.db.isClosed() {
		return nil, driver.ErrBadConn
	}
	return &conn{db: c.db, sess: c.db.sess.Clone()}, nil
}

func (c *connector) Driver() driver.Driver { return Driver{} }

// Close closes the DB when the connector opened it; database/sql calls it
// from sql.DB.Close.
func (c *connector) Close() error {
	if c.owned {
		return c.db.Close()
	}
	return nil
}

func (db *DB) isClosed() bool { return db.cat.Closed() }

// conn is one database/sql connection: a view of the shared DB with its
// own session: settings and the open transaction.
type conn struct {
	db    *DB
	sess  *engine.Session
	owned bool
}

var (
	_ driver.Conn               = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.NamedValueChecker  = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
	_ driver.SessionResetter    = (*conn)(nil)
)

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *conn) PrepareContext(_ context.Context, query string) (driver.Stmt, error) {
	s, err := c.db.prepare(c.sess, query)
	if err != nil {
		return nil, err
	}
	return &stmt{s: s}, nil
}

// Close rolls back the connection's open transaction, if any.
func (c *conn) Close() error {
	c.sess.Close()
	if c.owned {
		return c.db.Close()
	}
	return nil
}

// ResetSession rolls back a transaction a statement's BEGIN left open
// when database/sql hands the connection to another caller (a *sql.DB's
// statements each take any pooled connection; *sql.Tx and *sql.Conn keep
// theirs).
func (c *conn) ResetSession(context.Context) error {
	c.sess.Close()
	return nil
}

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx starts a transaction on the connection's session, as BEGIN
// does (engine/tx.go): snapshot isolation, so the weaker levels are
// given at least what they ask; a write in a ReadOnly one is an error.
func (c *conn) BeginTx(_ context.Context, opts driver.TxOptions) (driver.Tx, error) {
	switch sql.IsolationLevel(opts.Isolation) {
	case sql.LevelSerializable, sql.LevelLinearizable:
		return nil, errorf(ErrUnsupported, "isolation level %s is not supported (b2sql gives snapshot isolation)", sql.IsolationLevel(opts.Isolation))
	}
	if err := c.sess.Begin(opts.ReadOnly, Pos{}); err != nil {
		return nil, err
	}
	return tx{c.sess}, nil
}

// tx is a database/sql transaction: its connection's session's.
type tx struct{ sess *engine.Session }

func (t tx) Commit() error   { return t.sess.Commit(Pos{}) }
func (t tx) Rollback() error { return t.sess.Rollback(Pos{}) }

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	vals, err := namedValues(args)
	if err != nil {
		return nil, err
	}
	r, err := c.db.query(ctx, c.sess, query, vals)
	if err != nil {
		return nil, err
	}
	return &driverRows{r: r}, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	vals, err := namedValues(args)
	if err != nil {
		return nil, err
	}
	n, err := c.db.exec(ctx, c.sess, query, vals)
	if err != nil {
		return nil, err
	}
	return driver.RowsAffected(n), nil
}

func (c *conn) CheckNamedValue(nv *driver.NamedValue) error { return checkNamedValue(nv) }

func (c *conn) Ping(context.Context) error {
	if c.db.isClosed() {
		return driver.ErrBadConn
	}
	return nil
}

func (c *conn) IsValid() bool { return !c.db.isClosed() }

// checkNamedValue converts an argument to its typed constant up front, so
// that every type Query accepts also passes through database/sql.
func checkNamedValue(nv *driver.NamedValue) error {
	v, err := paramValue(nv.Value)
	if err != nil {
		return errorf(ErrParam, "argument %d: %v", nv.Ordinal, err)
	}
	nv.Value = v
	return nil
}

// namedValues returns database/sql's arguments as Query takes them: a
// named one (sql.Named) as a NamedArg, the value of the statement's
// $name markers.
func namedValues(args []driver.NamedValue) ([]any, error) {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a.Value
		if a.Name != "" {
			out[i] = sql.NamedArg{Name: a.Name, Value: a.Value}
		}
	}
	return out, nil
}

// stmt is a prepared statement for database/sql.
type stmt struct{ s *Stmt }

var (
	_ driver.Stmt              = (*stmt)(nil)
	_ driver.StmtQueryContext  = (*stmt)(nil)
	_ driver.StmtExecContext   = (*stmt)(nil)
	_ driver.NamedValueChecker = (*stmt)(nil)
)

func (s *stmt) Close() error  { return s.s.Close() }
func (s *stmt) NumInput() int { return s.s.NumInput() }

func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), valuesToNamed(args))
}

func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), valuesToNamed(args))
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	vals, err := namedValues(args)
	if err != nil {
		return nil, err
	}
	n, err := s.s.exec(ctx, vals)
	if err != nil {
		return nil, err
	}
	return driver.RowsAffected(n), nil
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	vals, err := namedValues(args)
	if err != nil {
		return nil, err
	}
	r, err := s.s.Query(ctx, vals...)
	if err != nil {
		return nil, err
	}
	return &driverRows{r: r}, nil
}

func (s *stmt) CheckNamedValue(nv *driver.NamedValue) error { return checkNamedValue(nv) }

func valuesToNamed(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, a := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return out
}
