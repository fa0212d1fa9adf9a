package b2sql

import (
	"fmt"
	"os"
)

// Option configures Open. Options apply in order; later ones win.
type Option func(*DB)

// settings are a DB's session settings; SET changes threads and pruning.
type settings struct {
	threads int  // 0 = GOMAXPROCS
	pruning bool // statistics and indexes may skip data
	// rulesOff: optimizer rules (planner.Rules names) and scan rules
	// (index.ScanRule names) switched off one by one, by SET.
	rulesOff    map[string]bool
	memoryLimit int64 // bytes; 0 = none
	readOnly    bool
	root        string // absolute, symlinks resolved; "" = no confinement
}

// WithThreads sets the query parallelism (default GOMAXPROCS). A value
// above the CPUs the process may use is clamped, with a warning.
func WithThreads(n int) Option { return func(db *DB) { db.settings.threads = n } }

// WithWarnings routes warnings (such as a clamped thread count) to fn;
// the default prints them on standard error.
func WithWarnings(fn func(string)) Option { return func(db *DB) { db.warn = fn } }

// WithMemoryLimit sets a memory budget in bytes for query execution. The
// operators that hold data (hash aggregation, sort, top-k, hash-join
// builds) sample the live Go heap as they accumulate rows and fail the query
// with an error wrapping executor.ErrMemoryLimit once it is exceeded, rather
// than letting it exhaust the machine. Streaming scans and filters hold a
// few batches and never approach it. The heap is the whole process's, so on
// a DB shared by concurrent queries the limit bounds them together.
func WithMemoryLimit(bytes int64) Option {
	return func(db *DB) { db.settings.memoryLimit = bytes }
}

// WithReadOnly opens the database read-only: statements and methods that
// would write files fail with ErrReadOnly.
func WithReadOnly() Option { return func(db *DB) { db.settings.readOnly = true } }

// WithRoot confines every file the DB reads or writes to the directory dir:
// the path given to Open, RegisterTable's paths and paths named in SQL
// (FROM 'x.parquet', read_parquet('…')) must resolve inside it, symbolic
// links included, or the operation fails with ErrOutsideRoot. Relative
// paths are taken relative to dir. Use it when the SQL comes from users.
func WithRoot(dir string) Option {
	return func(db *DB) { db.rootArg = dir }
}

// applyOptions runs opts and validates the result.
func (db *DB) applyOptions(opts []Option) error {
	for _, o := range opts {
		o(db)
	}
	if db.settings.threads < 0 {
		return fmt.Errorf("b2sql: negative thread count %d", db.settings.threads)
	}
	if db.settings.memoryLimit < 0 {
		return fmt.Errorf("b2sql: negative memory limit %d", db.settings.memoryLimit)
	}
	if db.rootArg != "" {
		root, err := canonicalDir(db.rootArg)
		if err != nil {
			return fmt.Errorf("b2sql: root: %w", err)
		}
		db.settings.root = root
	}
	if db.settings.threads > 0 {
		db.settings.threads = db.clampThreads(db.settings.threads)
	}
	return nil
}

// MemoryLimit returns the limit set by WithMemoryLimit (0: none).
func (db *DB) MemoryLimit() int64 { return db.settings.memoryLimit }

// ReadOnly reports whether the DB was opened WithReadOnly.
func (db *DB) ReadOnly() bool { return db.settings.readOnly }

func defaultWarn(s string) { fmt.Fprintln(os.Stderr, "warning:", s) }
