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
//
// A DB is safe for concurrent use by many goroutines: queries plan and run
// independently, and concurrent scans of one table share its opened file
// metadata. Close cancels the queries still running.
type DB struct {
	dir      string
	rootArg  string // WithRoot's argument, made canonical into settings.root
	mu       sync.RWMutex
	tables   map[string]planner.Table
	names    map[string]string // lower-case → as registered
	settings settings
	warn     func(string)
	warned   map[string]bool
	life     lifecycle // guarded by mu
	tmpDir   string    // CREATE TABLE's directory for a DB without one; guarded by mu
	writes   writeLocks
	views    map[string]string // lower-case name → SQL (views.go); guarded by mu

	memIndexes map[string]memIndex // index names on in-memory tables (index_stmt.go); guarded by mu
}

// Open opens path: a directory (every table file in it is registered under
// its file stem), a single table file (registered under its stem), or ""
// (or ":memory:") for an empty in-memory database. With WithRoot, path must
// lie inside the root; a relative path is taken relative to it.
func Open(path string, opts ...Option) (*DB, error) {
	db := &DB{
		tables:   map[string]planner.Table{},
		names:    map[string]string{},
		settings: settings{pruning: true},
		warn:     defaultWarn,
		warned:   map[string]bool{},
	}
	if err := db.applyOptions(opts); err != nil {
		return nil, err
	}
	if path == "" || path == ":memory:" {
		return db, nil
	}
	name := stem(path) // as given, not as symbolic links resolve
	path, err := db.confine(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		db.dir = path
		if err := db.registerDir(path); err != nil {
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
	db.warnOnce(fmt.Sprintf("threads = %d exceeds the %d CPUs this process may use (%s); using %d", n, cpus, why, cpus))
	return cpus
}

// warnOnce hands msg to the WithWarnings function the first time it comes.
func (db *DB) warnOnce(msg string) {
	db.mu.Lock()
	first := !db.warned[msg]
	db.warned[msg] = true
	db.mu.Unlock()
	if first && db.warn != nil {
		db.warn(msg)
	}
}

func (db *DB) threads() int {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.settings.threads > 0 {
		return db.settings.threads
	}
	return runtime.GOMAXPROCS(0)
}

// Query runs one SQL statement and streams its result; args are the
// values of its ? markers, in order (see Prepare for the accepted Go types).
// The result is produced as the caller reads it: nothing is buffered beyond
// a batch, and blocking work (sorting, aggregation) starts with the first
// Next. Statements that return no rows (SET) return an empty, column-less
// Rows. Cancelling ctx stops the query; Rows.Err then returns ctx.Err().
//
// SQL errors are *Error with the position in query and a Kind for
// errors.Is.
func (db *DB) Query(ctx context.Context, query string, args ...any) (*Rows, error) {
	srcs := sql.Split(query)
	switch len(srcs) {
	case 0:
		return nil, apiError(&sql.Error{Pos: sql.Pos{Line: 1, Col: 1}, Kind: sql.ErrSyntax, Msg: "empty statement"})
	case 1:
	default:
		s := srcs[1]
		return nil, apiError(&sql.Error{Pos: sql.Pos{Line: s.Line, Col: s.Col}, Kind: sql.ErrSyntax, Msg: "Query takes one statement; use Exec for a script"})
	}
	vals, err := paramValues(args)
	if err != nil {
		return nil, err
	}
	rows, err := db.run(ctx, srcs[0], vals)
	return rows, apiError(err)
}

// Exec runs every statement of a script, discarding rows, and stops at the
// first error. args are the values of the script's ? markers, in order:
// each statement takes as many as it has markers. Writes (COPY … TO,
// CREATE TABLE … AS, DROP TABLE) are refused on a read-only DB.
func (db *DB) Exec(ctx context.Context, script string, args ...any) error {
	_, err := db.exec(ctx, script, args)
	return err
}

// exec is Exec, also returning the rows written by COPY and CREATE TABLE.
func (db *DB) exec(ctx context.Context, script string, args []any) (written int64, err error) {
	vals, err := paramValues(args)
	if err != nil {
		return 0, err
	}
	used := 0
	for _, src := range sql.Split(script) {
		stmt, err := parse(src)
		if err != nil {
			return written, apiError(err)
		}
		n := min(numParams(stmt), len(vals)-used)
		r, err := db.runStatement(ctx, src, stmt, vals[used:used+n])
		if err != nil {
			return written, apiError(err)
		}
		used += n
		switch stmt.(type) {
		case *sql.Copy, *sql.CreateTableAs, *sql.Insert, *sql.Delete, *sql.Update:
			if len(r.static) == 1 && len(r.static[0]) == 1 {
				written += r.static[0][0].I
			}
		}
		if err := drain(r); err != nil {
			return written, err
		}
	}
	if used < len(vals) {
		return written, errorf(ErrParam, "script has %d parameters, %d arguments given", used, len(vals))
	}
	return written, nil
}

// drain reads r to the end and closes it.
func drain(r *Rows) error {
	for r.Next() {
	}
	err := r.Err()
	if cerr := r.Close(); err == nil {
		err = cerr
	}
	return err
}

// Explain returns the plan of a query (one line per operator, as EXPLAIN
// prints it) without running it: building a plan does no I/O.
func (db *DB) Explain(query string, args ...any) (string, error) {
	vals, err := paramValues(args)
	if err != nil {
		return "", err
	}
	srcs := sql.Split(query)
	if len(srcs) != 1 {
		return "", errorf(ErrSyntax, "Explain takes one statement, got %d", len(srcs))
	}
	stmt, err := parse(srcs[0])
	if err != nil {
		return "", apiError(err)
	}
	if err := db.acquire(); err != nil {
		return "", err
	}
	defer db.release()
	q, ok := stmt.(*sql.Query)
	if e, isExplain := stmt.(*sql.Explain); isExplain {
		q, ok = e.Query, e.Query != nil
		if !ok {
			text, err := db.explainWriteText(context.Background(), e, vals)
			return text, apiError(err)
		}
	}
	if !ok {
		switch stmt.(type) {
		case *sql.Insert, *sql.Update, *sql.Delete, *sql.Copy, *sql.CreateTableAs:
			text, err := db.explainWriteText(context.Background(), &sql.Explain{Write: stmt}, vals)
			return text, apiError(err)
		}
		return "", errorf(ErrUnsupported, "Explain takes a SELECT or a statement that writes")
	}
	built, _, err := db.plan(q, false, vals)
	if err != nil {
		return "", apiError(err)
	}
	return built.Explain(false), nil
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
			rows, err := db.run(ctx, s, nil)
			return rows, apiError(err)
		}
	}
	return db.Query(ctx, st.Text)
}

// run parses and runs one statement.
func (db *DB) run(ctx context.Context, src sql.Source, args []columnar.Value) (*Rows, error) {
	stmt, err := parse(src)
	if err != nil {
		return nil, err
	}
	return db.runStatement(ctx, src, stmt, args)
}

// parse parses one statement, writes (sql.ParseWrite) included, with a
// parser panic turned into an internal error.
func parse(src sql.Source) (stmt sql.Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			stmt, err = nil, internalError(r)
		}
	}()
	if st, ok, err := sql.ParseIndex(src); ok {
		return st, err
	}
	if st, ok, err := sql.ParseWrite(src); ok {
		return st, err
	}
	return sql.Parse(src)
}

// numParams counts the ? markers of a statement, writes included.
func numParams(st sql.Statement) int {
	switch s := st.(type) {
	case *sql.Copy:
		n := sql.NumParams(s.Query)
		if s.PathParam {
			n++
		}
		return n
	case *sql.CreateTableAs:
		return sql.NumParams(s.Query)
	case *sql.Insert:
		return sql.NumParams(s.Query)
	case *sql.Delete:
		if s.Where != nil {
			return sql.NumParams(s.Where)
		}
	case *sql.Update:
		return sql.NumParams(s.Query)
	case *sql.Explain:
		if s.Write != nil {
			return numParams(s.Write)
		}
	}
	return sql.NumParams(st)
}

// runStatement runs a parsed statement with its parameter values.
func (db *DB) runStatement(ctx context.Context, src sql.Source, stmt sql.Statement, args []columnar.Value) (rows *Rows, err error) {
	if err := db.acquire(); err != nil {
		return nil, err
	}
	defer db.release()
	defer func() {
		if r := recover(); r != nil {
			rows, err = nil, internalError(r)
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(args) > 0 && numParams(stmt) == 0 {
		switch stmt.(type) {
		case *sql.Query, *sql.Copy, *sql.CreateTableAs, *sql.Insert, *sql.Delete, *sql.Update:
		default:
			return nil, &sql.Error{Pos: sql.Pos{Line: src.Line, Col: src.Col}, Kind: sql.ErrParam,
				Msg: fmt.Sprintf("statement takes no parameters, %d arguments given", len(args))}
		}
	}
	switch s := stmt.(type) {
	case *sql.Query:
		return db.runQuery(ctx, s, args)
	case *sql.Explain:
		return db.explain(ctx, s, args)
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
		return db.describe(ctx, s, args)
	case *sql.Copy:
		return db.copyTo(ctx, s, args)
	case *sql.CreateTableAs:
		return db.createTableAs(ctx, s, args)
	case *sql.DropTable:
		return db.dropTable(s)
	case *sql.CreateTable, *sql.Insert, *sql.Delete, *sql.Update, *sql.Attach:
		return db.runDML(ctx, s, args) // dml.go
	case *sql.CreateIndex, *sql.DropIndex, *sql.Reindex:
		return db.runIndexStmt(s) // index_stmt.go
	case *sql.CreateView:
		return db.createView(s)
	case *sql.DropView:
		return db.dropView(s)
	}
	return nil, fmt.Errorf("unexpected statement %T", stmt)
}

// plan binds, optimizes and builds a query.
func (db *DB) plan(q *sql.Query, analyze bool, args []columnar.Value) (*planner.Built, []string, error) {
	return db.planThreads(q, analyze, db.threads(), args)
}

// planThreads is plan on a given number of threads.
func (db *DB) planThreads(q *sql.Query, analyze bool, threads int, args []columnar.Value) (*planner.Built, []string, error) {
	bound, err := db.bind(q, args)
	if err != nil {
		return nil, nil, err
	}
	db.mu.RLock()
	pruning := db.settings.pruning
	disabled, scanOff := db.rulesOffLocked()
	db.mu.RUnlock()
	root, _ := planner.Optimize(bound.Root, planner.Options{AllOff: !pruning, Disabled: disabled})
	built, err := planner.Build(root, planner.BuildOptions{Threads: threads, NoPrune: !pruning, ScanRulesOff: scanOff, Analyze: analyze, MemoryLimit: db.MemoryLimit()})
	if err != nil {
		return nil, nil, err
	}
	return built, bound.Names, nil
}

func (db *DB) runQuery(ctx context.Context, q *sql.Query, args []columnar.Value) (*Rows, error) {
	built, names, err := db.plan(q, false, args)
	if err != nil {
		return nil, err
	}
	return newRows(ctx, db, built, names)
}

func (db *DB) explain(ctx context.Context, e *sql.Explain, args []columnar.Value) (*Rows, error) {
	if e.Write != nil {
		return db.explainWrite(ctx, e, args) // explain_write.go
	}
	built, _, err := db.plan(e.Query, e.Analyze, args)
	if err != nil {
		return nil, err
	}
	if e.Analyze {
		r, err := newRows(ctx, db, built, nil)
		if err != nil {
			return nil, err
		}
		if err := drain(r); err != nil {
			return nil, err
		}
	}
	var vals [][]columnar.Value
	for _, line := range strings.Split(built.Explain(e.Analyze), "\n") {
		vals = append(vals, []columnar.Value{columnar.StringValue(line)})
	}
	return valueRows([]Column{{Name: "plan", Type: columnar.TVarchar}}, vals), nil
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
	case "disabled_rules", "disabled_optimizers":
		off := map[string]bool{}
		if !reset {
			if !v.Type.IsString() {
				return nil, fmt.Errorf("SET %s: expected a string of comma-separated rule names, got %s", name, v.String())
			}
			for _, r := range strings.Split(v.S, ",") {
				if r = strings.TrimSpace(r); r == "" {
					continue
				}
				canon, ok := canonicalRule(r)
				if !ok {
					return nil, fmt.Errorf("SET %s: unknown rule %q (rules: %s)", name, r, strings.Join(ruleNames(), ", "))
				}
				off[canon] = true
			}
		}
		db.mu.Lock()
		db.settings.rulesOff = off
		db.mu.Unlock()
	default:
		canon, ok := canonicalRule(name)
		if !ok {
			return nil, fmt.Errorf("unknown setting %q (settings: threads, pruning, disabled_rules, or a rule name: %s)", name, strings.Join(ruleNames(), ", "))
		}
		on := true
		if !reset {
			b, err := settingBool(v)
			if err != nil {
				return nil, fmt.Errorf("SET %s: %v", name, err)
			}
			on = b
		}
		db.mu.Lock()
		off := map[string]bool{}
		for k := range db.settings.rulesOff {
			off[k] = true
		}
		if on {
			delete(off, canon)
		} else {
			off[canon] = true
		}
		db.settings.rulesOff = off
		db.mu.Unlock()
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
