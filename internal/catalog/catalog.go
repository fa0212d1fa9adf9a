package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/storage"
)

// Options are the catalog's fixed properties, set when the database opens.
type Options struct {
	// Root confines every path (see Confine): absolute, symbolic links
	// resolved (CanonicalDir); "" = no confinement.
	Root     string
	ReadOnly bool
	// Warn receives each warning once (nil: none): a clamped thread count,
	// a table read in a lesser way than it was written.
	Warn func(string)
}

// Catalog is a database's names: tables (files and in-memory tables),
// views and index names, the directory new tables go to, the write locks
// and the life cycle of what it opened. It implements planner.Catalog and
// planner.ViewCatalog. Safe for concurrent use.
type Catalog struct {
	root     string
	readOnly bool
	warn     func(string)

	mu     sync.RWMutex
	dir    string                   // the database's directory ("" = none); guarded by mu
	tables map[string]planner.Table // lower-case name → table
	names  map[string]string        // lower-case → as registered
	views  map[string]string        // lower-case name → SQL (views.go)
	// tempViews marks the views made by CREATE TEMP VIEW (the ones temp.v
	// names; sql.CatalogMismatch).
	tempViews map[string]bool
	types     map[string]namedType  // lower-case name → CREATE TYPE's type (types.go)
	seqs      map[string]int64      // lower-case name → CREATE SEQUENCE's executor token (sequences.go)
	tempSeqs  map[string]bool       // the sequences made by CREATE TEMP SEQUENCE
	macros    map[string]*sql.Macro // lower-case name → CREATE MACRO's macro (macros.go)
	comments  map[string]string     // COMMENT ON's comments by lower-case key (comments.go)
	// schemas are CREATE SCHEMA's schemas as written, main not among them
	// (schemas.go); their relations are in the maps above as "s.t".
	schemas []string
	// dbs are the databases ATTACH made, by lower-case name
	// (databases.go); each is also a schema.
	dbs    map[string]Database
	life   lifecycle // lifecycle.go
	tmpDir string    // CREATE TABLE's directory for a DB without one

	memIndexes map[string]MemIndex // index names on in-memory tables (indexes.go)
	remote     remoteState         // secrets and s3_* settings (remote.go)

	writes writeLocks

	warnMu sync.Mutex
	warned map[string]bool

	rejectScans atomic.Uint64 // scan_id of store_rejects scans (rejects.go)

	// base is the database's catalog when this one is a transaction's
	// (tx.go), start what the transaction began from; nil otherwise. A
	// transaction's catalog has its own names; its life cycle, write
	// locks, storage settings and warnings are base's.
	base  *Catalog
	start *txState
	// committed marks a transaction's catalog whose COMMIT applied it.
	committed bool
}

// txState is what a transaction's catalog remembers of its start: the
// database catalog's entries when the snapshot was taken, to tell what
// the transaction changed and whether another session changed it too.
type txState struct {
	tables     map[string]planner.Table
	names      map[string]string
	views      map[string]string
	tempViews  map[string]bool
	types      map[string]namedType
	seqs       map[string]int64
	tempSeqs   map[string]bool
	macros     map[string]*sql.Macro
	comments   map[string]string
	memIndexes map[string]MemIndex
	schemas    []string
	dbs        map[string]Database
	dir        string // the database's directory (ATTACH changes it)
	// staged are the CTables the transaction changed and the file tables
	// it created, by key, with their pending versions (tx_files.go);
	// discarded the ones it dropped or replaced again; unlink the files of
	// the tables it dropped, removed at COMMIT. Guarded by the transaction
	// catalog's mu.
	staged    map[string]*staged
	discarded []*staged
	unlink    []string
}

// staged is a CTable's pending version in a transaction.
type staged struct {
	dir  string // the hidden directory holding it
	path string // the staged version: dir/<the table's file name>
	real string // the table's file, which COMMIT replaces
	// read is the version the transaction read (its snapshot's), whose
	// file COMMIT checks is still the table's; nil for a table the
	// transaction created.
	read *ctable.Table
	// versions are the staged versions opened, closed when the
	// transaction ends (as the database closes replaced tables).
	versions []planner.Table
}

// namedType is a CREATE TYPE's type and its name as written.
type namedType struct {
	Name string
	Type columnar.Type
}

// lifecycle tracks the work in flight on a catalog so that Close can stop
// it and release the tables only once nothing uses them. Guarded by
// Catalog.mu.
type lifecycle struct {
	closed  bool
	active  int                             // statements planning or running
	running map[any]context.CancelCauseFunc // open result sets, cancelled by Close
	orphans []planner.Table                 // tables to close when active drops to 0
	retired []planner.Table                 // replaced or dropped tables, closed when no statement is in flight (Release)
	tmpDir  string                          // removed once the orphans are closed
}

// writeLocks serializes writes per target (table name or file path).
type writeLocks struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

// New returns an empty catalog.
func New(o Options) *Catalog {
	return &Catalog{root: o.Root, readOnly: o.ReadOnly, warn: o.Warn, tables: map[string]planner.Table{}, names: map[string]string{}}
}

// Warn hands msg to the warning function the first time it comes.
func (c *Catalog) Warn(msg string) {
	if c.base != nil {
		c.base.Warn(msg)
		return
	}
	c.warnMu.Lock()
	first := !c.warned[msg]
	if c.warned == nil {
		c.warned = map[string]bool{}
	}
	c.warned[msg] = true
	c.warnMu.Unlock()
	if first && c.warn != nil {
		c.warn(msg)
	}
}

// Root is the confinement directory ("" = none).
func (c *Catalog) Root() string { return c.root }

// ReadOnly reports whether writes are refused.
func (c *Catalog) ReadOnly() bool { return c.readOnly }

// Dir is the database's directory ("" = none).
func (c *Catalog) Dir() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.dir
}

// SetDir makes dir the database's directory (Open on a directory, ATTACH).
func (c *Catalog) SetDir(dir string) {
	c.mu.Lock()
	c.dir = dir
	c.mu.Unlock()
}

// Table implements planner.Catalog.
func (c *Catalog) Table(name string) (planner.Table, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.tables[strings.ToLower(name)]
	return t, ok
}

// TableNames implements planner.Catalog.
func (c *Catalog) TableNames() []string { return c.Tables() }

// Register makes the file or glob at path queryable as name.
func (c *Catalog) Register(name, path string) error {
	t, err := c.OpenConfined(path)
	if err != nil {
		return err
	}
	c.Put(name, t)
	return nil
}

// Tables lists the registered table names, sorted.
func (c *Catalog) Tables() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]string, 0, len(c.names))
	for _, n := range c.names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// RegisterDir registers every table file directly inside dir.
func (c *Catalog) RegisterDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if Kind(name) == "" || textKind(name) != "" {
			continue // CSV and JSON files are read where queries name them
		}
		if err := c.Register(strings.TrimSuffix(name, filepath.Ext(name)), filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("registering %s: %w", name, err)
		}
	}
	return nil
}

// Put registers t under name, retiring a table it replaces (queries still
// scanning the old one keep it; it is closed with the catalog).
func (c *Catalog) Put(name string, t planner.Table) { c.set(name, t, true) }

// Swap points the existing entry name at t, a new version of its table,
// keeping the name as registered; the version it replaces stays open
// until the catalog closes.
func (c *Catalog) Swap(name string, t planner.Table) { c.set(name, t, false) }

func (c *Catalog) set(name string, t planner.Table, rename bool) {
	key := strings.ToLower(name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.tables[key]; ok && old != t {
		c.retire(old)
	}
	c.tables[key] = t
	if rename {
		c.names[key] = name
		c.clearComments(key) // a table registered anew
	}
}

// IsTemp implements sql.TempCatalog: whether the table or view under key
// exists and was created TEMP.
func (c *Catalog) IsTemp(key string) (temp, ok bool) {
	key = strings.ToLower(key)
	c.mu.RLock()
	defer c.mu.RUnlock()
	if _, ok := c.views[key]; ok {
		return c.tempViews[key], true
	}
	t, ok := c.tables[key]
	m, _ := t.(*MemTable)
	return m != nil && m.temp, ok
}

// CreateMem registers an empty in-memory table whose columns have the
// DEFAULT expressions defaults (nil: none) and which computes the
// generated columns generated (schema is its stored columns), created
// TEMP if temp; replace
// allows an existing table of that name to be replaced.
func (c *Catalog) CreateMem(name string, schema columnar.Schema, cons []ColumnConstraints, keys [][]int, primary []bool, defaults []sql.Source, generated []sql.GeneratedColumn, temp, replace bool) error {
	key := strings.ToLower(name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.tables[key]; ok {
		if !replace {
			return fmt.Errorf("table %q already exists", name)
		}
		c.retire(old)
	}
	c.tables[key] = &MemTable{schema: schema, cons: cons, keys: keys, primary: primary, defaults: defaults, generated: generated, temp: temp, numbered: true}
	c.names[key] = name
	c.clearComments(key)
	return nil
}

// Drop unregisters name, with the index names on it, and returns the
// table it named. The table is retired, not closed: running scans keep it.
func (c *Catalog) Drop(name string) (planner.Table, bool) {
	key := strings.ToLower(name)
	c.mu.Lock()
	defer c.mu.Unlock()
	old, ok := c.tables[key]
	if !ok {
		return nil, false
	}
	delete(c.tables, key)
	delete(c.names, key)
	c.clearComments(key)
	c.retire(old)
	for n, ix := range c.memIndexes {
		if ix.Table == key {
			delete(c.memIndexes, n) // an index goes with its table
		}
	}
	return old, true
}

// retire keeps a table replaced or dropped until no statement uses it; a
// transaction's catalog retires nothing itself: the tables it replaces
// are the database's until Commit retires them there. c.mu is held.
func (c *Catalog) retire(old planner.Table) {
	if c.base == nil {
		c.life.retired = append(c.life.retired, old)
	}
}

// TempDir is the private temporary directory of a catalog without a
// directory ("" when none was made yet).
func (c *Catalog) TempDir() string {
	if c.base != nil {
		return c.base.TempDir()
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.tmpDir
}

// WriteDir is where CREATE TABLE writes: the database's directory, or a
// private temporary directory (inside the root, with one) made on first
// use and removed by Close.
func (c *Catalog) WriteDir() (string, error) {
	if c.base != nil {
		// A transaction stages the files it writes there (StagePath):
		// the directory it attached, else the database's.
		if d := c.Dir(); d != "" {
			return d, nil
		}
		return c.base.WriteDir()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dir != "" {
		return c.dir, nil
	}
	if c.life.closed {
		return "", ErrClosed
	}
	if c.tmpDir == "" {
		dir, err := os.MkdirTemp(c.root, ".b2sql-tables-")
		if err != nil {
			return "", fmt.Errorf("b2sql: CREATE TABLE: %w", err)
		}
		c.tmpDir = dir
	}
	return c.tmpDir, nil
}

// CTables returns the registered CTables by lower-case name.
func (c *Catalog) CTables() map[string]*ctable.Table {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := map[string]*ctable.Table{}
	for k, t := range c.tables {
		if ct, ok := t.(*ctable.Table); ok {
			out[k] = ct
		}
	}
	return out
}

// remoteState is a catalog's storage configuration, shared by its sessions
// (DuckDB's secrets and s3_* settings are the database's, not a
// connection's). Guarded by its own lock: a query opening a remote file
// takes a snapshot.
type remoteState struct {
	mu  sync.RWMutex
	cfg storage.Config
}

// clearComments forgets the comments on the relation under key and on
// its columns. Guarded by c.mu (held for writing).
func (c *Catalog) clearComments(key string) {
	for k := range c.comments {
		if k == key || strings.HasPrefix(k, key+".") {
			delete(c.comments, k)
		}
	}
}
