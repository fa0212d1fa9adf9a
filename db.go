package b2sql

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/internal/engine"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
)

// DB is an open database: a set of named tables plus session settings.
//
// A DB is safe for concurrent use by many goroutines: queries plan and run
// independently, and concurrent scans of one table share its opened file
// metadata. Close cancels the queries still running.
type DB struct {
	cat  *catalog.Catalog
	eng  *engine.Engine
	sess *engine.Session // the settings of DB's own methods; each database/sql connection has its own
	opts options         // as Open was given them
}

// options are what the Options set; Open reads them once.
type options struct {
	settings engine.Settings // the starting settings of every session
	warn     func(string)
	readOnly bool
	root     string // WithRoot's argument
	// noRemote and remoteHosts: WithoutRemote, WithRemoteHosts.
	noRemote    bool
	remoteHosts []string
}

// newDB applies opts and makes an empty DB.
func newDB(opts []Option) (*DB, error) {
	db := &DB{opts: options{settings: engine.Settings{Pruning: true}, warn: defaultWarn}}
	for _, o := range opts {
		o(db)
	}
	o := db.opts
	if o.settings.Threads < 0 {
		return nil, fmt.Errorf("b2sql: negative thread count %d", o.settings.Threads)
	}
	if o.settings.MemoryLimit < 0 {
		return nil, fmt.Errorf("b2sql: negative memory limit %d", o.settings.MemoryLimit)
	}
	var root string
	if o.root != "" {
		r, err := catalog.CanonicalDir(o.root)
		if err != nil {
			return nil, fmt.Errorf("b2sql: root: %w", err)
		}
		root = r
	}
	db.cat = catalog.New(catalog.Options{Root: root, ReadOnly: o.readOnly, Warn: o.warn})
	db.cat.UpdateStorage(func(cfg *storage.Config) error {
		cfg.DisableRemote, cfg.AllowHosts = o.noRemote, o.remoteHosts
		return nil
	})
	db.eng = engine.New(db.cat)
	if o.settings.Threads > 0 {
		o.settings.Threads = db.eng.ClampThreads(o.settings.Threads)
	}
	db.sess = db.eng.NewSession(o.settings)
	return db, nil
}

func defaultWarn(s string) { fmt.Fprintln(os.Stderr, "warning:", s) }

// Open opens path: a directory (every table file in it is registered under
// its file stem), a single table file (registered under its stem), or ""
// (or ":memory:") for an empty in-memory database. With WithRoot, path must
// lie inside the root; a relative path is taken relative to it.
func Open(path string, opts ...Option) (*DB, error) {
	db, err := newDB(opts)
	if err != nil {
		return nil, err
	}
	if path == "" || path == ":memory:" {
		return db, nil
	}
	name := stem(path) // as given, not as symbolic links resolve
	path, err = db.cat.Confine(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		db.cat.SetDir(path)
		if err := db.cat.RegisterDir(path); err != nil {
			db.Close()
			return nil, err
		}
		return db, nil
	}
	if err := db.RegisterTable(name, path); err != nil {
		return nil, err
	}
	return db, nil
}

func stem(path string) string {
	base := path[strings.LastIndexAny(path, `/\`)+1:]
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return base
}

// RegisterTable makes the file or glob at path queryable as name.
func (db *DB) RegisterTable(name, path string) error { return db.cat.Register(name, path) }

// Tables lists the registered table names, sorted.
func (db *DB) Tables() []string { return db.cat.Tables() }

// Attach makes dir the DB's directory: its table files become tables of
// the default database and new tables are written there (a missing
// directory is created), as Open on a directory does. The ATTACH
// statement instead attaches dir as a database of its own (dir.t).
func (db *DB) Attach(dir string) error { return db.cat.Mount(dir) }

// Close closes the DB. Queries still running are cancelled: their Rows
// report ErrClosed from Err, and the tables are released once the last of
// them is closed (Close does not wait for callers to do so). New
// statements fail with ErrClosed. Close is safe to call twice.
func (db *DB) Close() error {
	db.sess.Close() // a transaction left open by BEGIN rolls back
	return db.cat.Close()
}

// InTransaction reports whether BEGIN left a transaction open on the
// DB's own session (the one its methods share), and whether an error
// aborted it (only ROLLBACK or COMMIT is accepted then).
func (db *DB) InTransaction() (open, aborted bool) { return db.sess.InTransaction() }

// Query runs one SQL statement and streams its result; args are the
// values of its ? and $n markers, in order, or of its $name markers by
// name (sql.Named; see Parameters in the package doc, and Prepare for the
// accepted Go types).
// The result is produced as the caller reads it: nothing is buffered beyond
// a batch, and blocking work (sorting, aggregation) starts with the first
// Next. Statements that return no rows (SET) return an empty, column-less
// Rows. Cancelling ctx stops the query; Rows.Err then returns ctx.Err().
//
// SQL errors are *Error with the position in query and a Kind for
// errors.Is.
func (db *DB) Query(ctx context.Context, query string, args ...any) (*Rows, error) {
	return db.query(ctx, db.sess, query, args)
}

func (db *DB) query(ctx context.Context, sess *engine.Session, query string, args []any) (*Rows, error) {
	src, err := oneStatement(query, "Query takes one statement; use Exec for a script")
	if err != nil {
		return nil, err
	}
	vals, names, err := paramValues(args)
	if err != nil {
		return nil, err
	}
	return db.run(ctx, sess, src, nil, vals, names)
}

// oneStatement splits query, which must hold exactly one statement.
func oneStatement(query, more string) (sql.Source, error) {
	srcs := sql.Split(query)
	switch len(srcs) {
	case 0:
		return sql.Source{}, &Error{Pos: Pos{Line: 1, Col: 1}, Kind: ErrSyntax, Msg: "empty statement"}
	case 1:
		return srcs[0], nil
	}
	s := srcs[1]
	return sql.Source{}, &Error{Pos: Pos{Line: s.Line, Col: s.Col}, Kind: ErrSyntax, Msg: more}
}

// run parses (unless stmt is given) and runs one statement with args,
// given by names when names is non-nil (paramValues).
func (db *DB) run(ctx context.Context, sess *engine.Session, src sql.Source, stmt sql.Statement, args []columnar.Value, names []string) (*Rows, error) {
	if stmt == nil {
		var err error
		if stmt, err = sess.Parse(src); err != nil {
			return nil, err
		}
	}
	args, err := argsFor(stmt, args, names)
	if err != nil {
		return nil, sql.WithEnd(src, err)
	}
	res, err := sess.Run(ctx, src, stmt, args)
	if err != nil {
		return nil, err
	}
	return newRows(ctx, db.cat, res)
}

// Exec runs every statement of a script, discarding rows, and stops at the
// first error. args are the values of the script's ? and $n markers, in
// order: each statement takes as many as it has parameters; values given
// by name (sql.Named) go to every statement with those $name markers. Writes (COPY … TO,
// CREATE TABLE … AS, DROP TABLE) are refused on a read-only DB.
func (db *DB) Exec(ctx context.Context, script string, args ...any) error {
	_, err := db.exec(ctx, db.sess, script, args)
	return err
}

// exec is Exec, also returning the rows written by COPY and CREATE TABLE.
func (db *DB) exec(ctx context.Context, sess *engine.Session, script string, args []any) (written int64, err error) {
	vals, names, err := paramValues(args)
	if err != nil {
		return 0, err
	}
	// Positional values go to the statements in order, each taking as
	// many as it has parameters; named values go to every statement that
	// names them.
	used, usedNamed := 0, make([]bool, len(names))
	for _, src := range sql.Split(script) {
		stmt, err := sess.Parse(src)
		if err != nil {
			return written, err
		}
		args := vals
		if names == nil {
			n := min(engine.NumParams(stmt), len(vals)-used)
			args = vals[used : used+n]
			used += n
		}
		args, took, err := engine.ArgsByName(stmt, args, names)
		if err != nil {
			return written, sql.WithEnd(src, err)
		}
		for i, t := range took {
			usedNamed[i] = usedNamed[i] || t
		}
		res, err := sess.Run(ctx, src, stmt, args)
		if err != nil {
			return written, err
		}
		written += res.Written(stmt)
		r, err := newRows(ctx, db.cat, res)
		if err != nil {
			return written, err
		}
		if err := drain(r); err != nil {
			return written, err
		}
	}
	if names != nil {
		return written, engine.UnusedArg(names, usedNamed)
	}
	if used < len(vals) {
		return written, errorf(ErrParam, "script has %d parameters, %d arguments given", used, len(vals))
	}
	return written, nil
}

// Explain returns the plan of a query (one line per operator, as EXPLAIN
// prints it) without running it: building a plan does no I/O.
func (db *DB) Explain(query string, args ...any) (string, error) {
	vals, names, err := paramValues(args)
	if err != nil {
		return "", err
	}
	srcs := sql.Split(query)
	if len(srcs) != 1 {
		return "", errorf(ErrSyntax, "Explain takes one statement, got %d", len(srcs))
	}
	stmt, err := db.sess.Parse(srcs[0])
	if err != nil {
		return "", err
	}
	if vals, err = argsFor(stmt, vals, names); err != nil {
		return "", err
	}
	return db.sess.Explain(srcs[0], stmt, vals)
}

// Statement is one statement of a script with its position.
type Statement struct {
	Text      string
	Line, Col int
	src       sql.Source // as SplitScript found it, tokens included
}

// SplitScript splits a script into statements at ';' outside quotes and
// comments, keeping each one's position in the script. The script is
// lexed once: QueryStatement parses each statement from the tokens found
// here.
func SplitScript(script string) []Statement {
	srcs := sql.Split(script)
	out := make([]Statement, len(srcs))
	for i, s := range srcs {
		out[i] = Statement{Text: s.Text, Line: s.Line, Col: s.Col, src: s}
	}
	return out
}

// QueryStatement runs a statement obtained from SplitScript, reporting
// error positions relative to the whole script. A Statement made by hand
// runs as Query(st.Text).
func (db *DB) QueryStatement(ctx context.Context, script string, st Statement) (*Rows, error) {
	if st.src.Text == st.Text && st.src.Line == st.Line && st.src.Col == st.Col && st.Text != "" {
		return db.run(ctx, db.sess, st.src, nil, nil, nil)
	}
	return db.Query(ctx, st.Text)
}
