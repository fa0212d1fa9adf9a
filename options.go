package b2sql

// Option configures Open. Options apply in order; later ones win.
type Option func(*DB)

// WithThreads sets the query parallelism (default GOMAXPROCS). A value
// above the CPUs the process may use is clamped, with a warning.
func WithThreads(n int) Option { return func(db *DB) { db.opts.settings.Threads = n } }

// WithWarnings routes warnings (such as a clamped thread count) to fn;
// the default prints them on standard error.
func WithWarnings(fn func(string)) Option { return func(db *DB) { db.opts.warn = fn } }

// WithMemoryLimit sets the memory limit in bytes of each query (SET
// memory_limit; 0: the default, 80% of the physical memory or of the
// cgroup limit, whichever is lower). Operators that hold data reserve it
// from the query's memory manager before they grow: sorts, hash
// aggregations, hash joins and materialized CTEs spill to the temp
// directory when refused; an operator that cannot spill (top-k, a join
// without equality keys) fails the query with an error naming it and the
// figures. Streaming scans and filters hold a few batches.
func WithMemoryLimit(bytes int64) Option {
	return func(db *DB) { db.opts.settings.MemoryLimit = bytes }
}

// WithReadOnly opens the database read-only: statements and methods that
// would write files fail with ErrReadOnly.
func WithReadOnly() Option { return func(db *DB) { db.opts.readOnly = true } }

// WithRoot confines every file the DB reads or writes to the directory dir:
// the path given to Open, RegisterTable's paths and paths named in SQL
// (FROM 'x.parquet', read_parquet('…')) must resolve inside it, symbolic
// links included, or the operation fails with ErrOutsideRoot. Relative
// paths are taken relative to dir. Use it when the SQL comes from users.
func WithRoot(dir string) Option {
	return func(db *DB) { db.opts.root = dir }
}

// WithoutRemote refuses every remote location (s3://, gs://, r2://,
// http(s)://) in SQL and in RegisterTable: opening one fails with an
// error wrapping storage.ErrRemoteDisabled. Use it with WithRoot when the
// SQL comes from users and the process must reach no server.
func WithoutRemote() Option { return func(db *DB) { db.opts.noRemote = true } }

// WithRemoteHosts allows remote locations only on the given hosts:
// "data.example.com" exactly, "*.example.com" any subdomain; for s3://
// the host is the endpoint's (s3.<region>.amazonaws.com without one). A
// DB opened WithRoot reads no remote location unless its hosts are named
// here. SQL cannot widen the list (CREATE SECRET … ENDPOINT to another
// host is refused when used). Later calls replace earlier ones.
func WithRemoteHosts(hosts ...string) Option {
	return func(db *DB) { db.opts.remoteHosts = append([]string(nil), hosts...) }
}

// MemoryLimit returns the limit set by WithMemoryLimit (0: none).
func (db *DB) MemoryLimit() int64 { return db.opts.settings.MemoryLimit }

// ReadOnly reports whether the DB was opened WithReadOnly.
func (db *DB) ReadOnly() bool { return db.opts.readOnly }
