package b2sql

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// DB is an open database: a set of named tables plus session settings.
// It is safe for concurrent use.
type DB struct {
	dir    string
	mu     sync.RWMutex
	tables map[string]planner.Table
	names  map[string]string // lower-case → as registered

	settings settings
	warn     func(string)
	warned   map[string]bool
}

type settings struct {
	threads int
	pruning bool
}

// Option configures Open.
type Option func(*DB)

// WithThreads sets the query parallelism (default GOMAXPROCS).
func WithThreads(n int) Option { return func(db *DB) { db.settings.threads = n } }

// WithWarnings routes warnings (such as a clamped thread count) to fn;
// the default prints them on standard error.
func WithWarnings(fn func(string)) Option { return func(db *DB) { db.warn = fn } }

// Open opens path: a directory (every table file in it is registered under
// its file stem), a single table file (registered under its stem), or "" for
// an empty in-memory database.
func Open(path string, opts ...Option) (*DB, error) {
	db := &DB{
		tables:   map[string]planner.Table{},
		names:    map[string]string{},
		settings: settings{pruning: true},
		warn:     func(s string) { fmt.Fprintln(os.Stderr, "warning:", s) },
		warned:   map[string]bool{},
	}
	for _, o := range opts {
		o(db)
	}
	if db.settings.threads > 0 {
		db.settings.threads = db.clampThreads(db.settings.threads)
	}
	if path == "" {
		return db, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		db.dir = path
		if err := db.registerDir(path); err != nil {
			return nil, err
		}
		return db, nil
	}
	if err := db.RegisterTable(stem(path), path); err != nil {
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

// Close releases the DB's tables.
func (db *DB) Close() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	for _, t := range db.tables {
		if c, ok := t.(interface{ Close() error }); ok {
			c.Close()
		}
	}
	db.tables = map[string]planner.Table{}
	db.names = map[string]string{}
	return nil
}

// usableCPUs is how many CPUs this process may run on: the affinity mask
// (runtime.NumCPU honours it) further limited by a cgroup v2 CPU quota.
func usableCPUs() (int, string) {
	n, why := runtime.NumCPU(), "CPU affinity"
	if b, err := os.ReadFile("/sys/fs/cgroup/cpu.max"); err == nil {
		f := strings.Fields(string(b))
		if len(f) == 2 && f[0] != "max" {
			quota, err1 := strconv.ParseFloat(f[0], 64)
			period, err2 := strconv.ParseFloat(f[1], 64)
			if err1 == nil && err2 == nil && period > 0 {
				if q := int(quota/period + 0.999); q > 0 && q < n {
					n, why = q, "cgroup CPU quota"
				}
			}
		}
	}
	return n, why
}

// clampThreads limits n to the usable CPUs, warning once.
func (db *DB) clampThreads(n int) int {
	cpus, why := usableCPUs()
	if n <= cpus {
		return n
	}
	msg := fmt.Sprintf("threads = %d exceeds the %d CPUs this process may use (%s); using %d", n, cpus, why, cpus)
	db.mu.Lock()
	first := !db.warned[msg]
	db.warned[msg] = true
	db.mu.Unlock()
	if first && db.warn != nil {
		db.warn(msg)
	}
	return cpus
}

func (db *DB) threads() int {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.settings.threads > 0 {
		return db.settings.threads
	}
	return runtime.GOMAXPROCS(0)
}

// Query runs one SQL statement and streams its result. Statements that
// return no rows (SET) return an empty, column-less Rows.
func (db *DB) Query(ctx context.Context, query string) (*Rows, error) {
	srcs := sql.Split(query)
	switch len(srcs) {
	case 0:
		return nil, &sql.Error{Pos: sql.Pos{Line: 1, Col: 1}, Kind: sql.ErrSyntax, Msg: "empty statement"}
	case 1:
	default:
		s := srcs[1]
		return nil, &sql.Error{Pos: sql.Pos{Line: s.Line, Col: s.Col}, Kind: sql.ErrSyntax, Msg: "Query takes one statement; use Exec for a script"}
	}
	return db.run(ctx, srcs[0])
}

// Exec runs every statement of a script, discarding rows, and stops at the
// first error.
func (db *DB) Exec(ctx context.Context, script string) error {
	for _, s := range sql.Split(script) {
		r, err := db.run(ctx, s)
		if err != nil {
			return err
		}
		for r.Next() {
		}
		if err := r.Err(); err != nil {
			return err
		}
		if err := r.Close(); err != nil {
			return err
		}
	}
	return nil
}

// Statement is one statement of a script with its position.
type Statement struct {
	Text      string
	Line, Col int
}

// SplitScript splits a script into statements at ';' outside quotes and
// comments, keeping each one's position in the script.
func SplitScript(script string) []Statement {
	var out []Statement
	for _, s := range sql.Split(script) {
		out = append(out, Statement{Text: s.Text, Line: s.Line, Col: s.Col})
	}
	return out
}

// QueryStatement runs a statement obtained from SplitScript, reporting
// error positions relative to the whole script.
func (db *DB) QueryStatement(ctx context.Context, script string, st Statement) (*Rows, error) {
	for _, s := range sql.Split(script) {
		if s.Line == st.Line && s.Col == st.Col {
			return db.run(ctx, s)
		}
	}
	return db.Query(ctx, st.Text)
}

func (db *DB) run(ctx context.Context, src sql.Source) (rows *Rows, err error) {
	defer func() {
		if r := recover(); r != nil {
			rows, err = nil, internalError(r)
		}
	}()
	stmt, err := sql.Parse(src)
	if err != nil {
		return nil, err
	}
	switch s := stmt.(type) {
	case *sql.Query:
		return db.runQuery(ctx, s)
	case *sql.Explain:
		return db.explain(ctx, s)
	case *sql.Set:
		return db.set(s.Name, s.Value, false)
	case *sql.Reset:
		return db.set(s.Name, columnar.Value{}, true)
	case *sql.ShowTables:
		var vals [][]columnar.Value
		for _, n := range db.Tables() {
			vals = append(vals, []columnar.Value{columnar.StringValue(n)})
		}
		return valueRows([]Column{{Name: "name", Type: columnar.TVarchar}}, vals), nil
	case *sql.Describe:
		return db.describe(ctx, s)
	}
	return nil, fmt.Errorf("unexpected statement %T", stmt)
}

// plan binds, optimizes and builds a query.
func (db *DB) plan(q *sql.Query, analyze bool) (*planner.Built, []string, error) {
	bound, err := sql.Bind(q, catalog{db})
	if err != nil {
		return nil, nil, err
	}
	db.mu.RLock()
	pruning := db.settings.pruning
	db.mu.RUnlock()
	root, _ := planner.Optimize(bound.Root, planner.Options{AllOff: !pruning})
	built, err := planner.Build(root, planner.BuildOptions{Threads: db.threads(), NoPrune: !pruning, Analyze: analyze})
	if err != nil {
		return nil, nil, err
	}
	return built, bound.Names, nil
}

func (db *DB) runQuery(ctx context.Context, q *sql.Query) (*Rows, error) {
	built, names, err := db.plan(q, false)
	if err != nil {
		return nil, err
	}
	r, err := newRows(ctx, built.Root, names)
	if r != nil {
		r.built = built
	}
	return r, err
}

func (db *DB) explain(ctx context.Context, e *sql.Explain) (*Rows, error) {
	built, _, err := db.plan(e.Query, e.Analyze)
	if err != nil {
		return nil, err
	}
	if e.Analyze {
		r, err := newRows(ctx, built.Root, nil)
		if err != nil {
			return nil, err
		}
		for r.Next() {
		}
		if err := r.Err(); err != nil {
			return nil, err
		}
		if err := r.Close(); err != nil {
			return nil, err
		}
	}
	var vals [][]columnar.Value
	for _, line := range strings.Split(built.Explain(e.Analyze), "\n") {
		vals = append(vals, []columnar.Value{columnar.StringValue(line)})
	}
	return valueRows([]Column{{Name: "plan", Type: columnar.TVarchar}}, vals), nil
}

func (db *DB) describe(ctx context.Context, d *sql.Describe) (*Rows, error) {
	var cols []Column
	if d.Query != nil {
		bound, err := sql.Bind(d.Query, catalog{db})
		if err != nil {
			return nil, err
		}
		for i, c := range bound.Root.Schema() {
			cols = append(cols, Column{Name: bound.Names[i], Type: c.Type})
		}
	} else {
		t, ok := catalog{db}.Table(d.Table)
		if !ok {
			return nil, fmt.Errorf("unknown table %q", d.Table)
		}
		for _, f := range t.Schema() {
			cols = append(cols, Column{Name: f.Name, Type: f.Type})
		}
	}
	var vals [][]columnar.Value
	for _, c := range cols {
		vals = append(vals, []columnar.Value{columnar.StringValue(c.Name), columnar.StringValue(c.Type.String())})
	}
	return valueRows([]Column{{Name: "column_name", Type: columnar.TVarchar}, {Name: "column_type", Type: columnar.TVarchar}}, vals), nil
}

// set changes a session setting (reset restores its default).
func (db *DB) set(name string, v columnar.Value, reset bool) (*Rows, error) {
	name = strings.ToLower(name)
	switch name {
	case "threads", "worker_threads":
		n := 0
		if !reset {
			x, err := settingInt(v)
			if err != nil || x < 1 {
				return nil, fmt.Errorf("SET threads: expected a positive integer, got %s", v.String())
			}
			n = db.clampThreads(int(x))
		}
		db.mu.Lock()
		db.settings.threads = n
		db.mu.Unlock()
	case "pruning", "optimizer":
		on := true
		if !reset {
			b, err := settingBool(v)
			if err != nil {
				return nil, fmt.Errorf("SET %s: %v", name, err)
			}
			on = b
		}
		db.mu.Lock()
		db.settings.pruning = on
		db.mu.Unlock()
	default:
		return nil, fmt.Errorf("unknown setting %q (settings: threads, pruning)", name)
	}
	return valueRows(nil, nil), nil
}

func settingInt(v columnar.Value) (int64, error) {
	switch {
	case v.Type.IsInteger():
		return v.I, nil
	case v.Type.IsString():
		return strconv.ParseInt(strings.TrimSpace(v.S), 10, 64)
	}
	return 0, fmt.Errorf("not an integer")
}

func settingBool(v columnar.Value) (bool, error) {
	switch {
	case v.Type.ID == columnar.Bool:
		return v.Bool(), nil
	case v.Type.IsInteger():
		return v.I != 0, nil
	case v.Type.IsString():
		switch strings.ToLower(strings.TrimSpace(v.S)) {
		case "on", "true", "1", "yes":
			return true, nil
		case "off", "false", "0", "no":
			return false, nil
		}
	}
	return false, fmt.Errorf("expected on or off, got %s", v.String())
}
