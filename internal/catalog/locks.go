package catalog

import (
	"fmt"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/sql"
)

// Writes to one table or file are serialized: within the process by
// Catalog.Lock, across processes by LockFile. Reads never wait for them.

// Lock takes the in-process write lock of key ("table:<name>" or
// "file:<path>") and returns its unlock function.
func (c *Catalog) Lock(key string) func() {
	if c.base != nil {
		return c.base.Lock(key)
	}
	w := &c.writes
	w.mu.Lock()
	if w.locks == nil {
		w.locks = map[string]*sync.Mutex{}
	}
	m, ok := w.locks[key]
	if !ok {
		m = &sync.Mutex{}
		w.locks[key] = m
	}
	w.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// ReadOnlyError is the error of a write statement what on a read-only
// database, positioned at pos.
func ReadOnlyError(pos sql.Pos, what string) error {
	return &sql.Error{Pos: pos, Kind: ErrReadOnly, Msg: what + ": the database is read-only"}
}

// Target is a table a statement changes, locked: an in-memory table or a
// CTable (the newest version of it).
type Target struct {
	Name   string // as the statement spells it
	Mem    *MemTable
	CT     *ctable.Table
	Unlock func()
}

// LockTarget finds and locks the table a statement what changes, named
// name in catalog (sql.CatalogMismatch: "temp", "memory" or "" when the
// statement gives none); for a CTable it also reopens the table when
// another process changed it, so that the statement sees the newest
// version.
func (c *Catalog) LockTarget(what, name, catalog string, pos sql.Pos) (*Target, error) {
	if c.readOnly {
		return nil, ReadOnlyError(pos, what)
	}
	if msg := sql.CatalogMismatch(c, catalog, name); msg != "" {
		return nil, &sql.Error{Pos: pos, Kind: sql.ErrUnknownTable, Msg: msg}
	}
	t, err := c.WriteTarget(what, name, pos)
	if err != nil {
		return nil, err
	}
	key := strings.ToLower(name)
	tg := &Target{Name: name}
	switch x := t.(type) {
	case *MemTable:
		tg.Mem = x
		tg.Unlock = c.Lock("table:" + key)
	case *ctable.Table:
		unlockMem := c.Lock("table:" + key)
		unlockFile, err := LockFile(x.Path())
		if err != nil {
			unlockMem()
			return nil, err
		}
		tg.Unlock = func() { unlockFile(); unlockMem() }
		tg.CT = x
		if c.base != nil {
			// A transaction changes the version it read (or its own
			// staged one): a file changed since is a conflict now, as
			// DuckDB reports one at the statement.
			if err := c.checkStagedTarget(key, x); err != nil {
				tg.Unlock()
				return nil, err
			}
			return tg, nil
		}
		if !Unchanged(x) {
			fresh, err := OpenCTable(x.Path())
			if err != nil {
				tg.Unlock()
				return nil, err
			}
			c.Swap(name, fresh)
			tg.CT = fresh.(*ctable.Table)
		}
	}
	return tg, nil
}

// WriteTarget returns the table name when statement what can change it:
// an unknown table or one it cannot change (a Parquet file) is an error.
func (c *Catalog) WriteTarget(what, name string, pos sql.Pos) (any, error) {
	t, ok := c.Table(name)
	if !ok {
		return nil, &sql.Error{Pos: pos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("unknown table %q", name)}
	}
	switch t.(type) {
	case *MemTable, *ctable.Table:
		return t, nil
	}
	return nil, &sql.Error{Pos: pos, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("%s: table %q is read-only (%s writes in-memory tables and CTables .b2d/.b2z; rewrite a Parquet file with COPY)", what, name, what)}
}

// Commit publishes a change of the target CTable and points the catalog
// at the new version.
func (c *Catalog) Commit(tg *Target, ch *ctable.Change) error {
	if c.base != nil {
		return c.stage(tg.Name, tg.CT, ch) // tx_files.go
	}
	if err := ch.Commit(); err != nil {
		return err
	}
	fresh, err := OpenCTable(tg.CT.Path())
	if err != nil {
		return err
	}
	Forget(tg.CT)
	c.Swap(tg.Name, fresh)
	return nil
}

// LockCTable takes the write locks of the CTable t registered under name
// (as LockTarget does) and returns its newest version, opened afresh:
// another database may have changed the file.
func (c *Catalog) LockCTable(name string, t *ctable.Table) (*ctable.Table, func(), error) {
	unlockMem := c.Lock("table:" + strings.ToLower(name))
	unlockFile, err := LockFile(t.Path())
	if err != nil {
		unlockMem()
		return nil, nil, err
	}
	unlock := func() { unlockFile(); unlockMem() }
	path := t.Path()
	if c.base != nil {
		// A transaction indexes its staged version (tx_files.go).
		if path, err = c.stageForIndex(name, t); err != nil {
			unlock()
			return nil, nil, err
		}
	}
	fresh, err := ctable.Open(path)
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return fresh, unlock, nil
}

// Republish reopens the CTable at path and points name at it (after an
// index statement wrote a new version).
func (c *Catalog) Republish(name, path string) error {
	t, err := OpenCTable(path)
	if err != nil {
		return err
	}
	if c.base != nil {
		c.keepStaged(name, t) // tx_files.go
	}
	c.Swap(name, t)
	return nil
}
