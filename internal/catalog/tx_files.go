package catalog

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/planner"
)

// A CTable changed inside a transaction is changed as outside one (a
// ctable.Change built beside the table), except that the new version is
// not published over the table: Change.Stage moves it into a hidden
// directory next to the table, ".<file>.tx-*", where the transaction's
// later statements read and change it. COMMIT publishes each staged
// version over its table with ctable.PublishStaged (one atomic exchange
// or rename per file) after checking that no one changed the table since
// the transaction read it; ROLLBACK, or a failed COMMIT, removes the
// staged versions and leaves the tables' files as they were.

// staged is a CTable's pending version in a transaction.
type staged struct {
	dir  string // the hidden directory holding it
	path string // the staged version: dir/<the table's file name>
	real string // the table's file, which COMMIT replaces
	// read is the version the transaction read (its snapshot's), whose
	// file COMMIT checks is still the table's.
	read *ctable.Table
	// versions are the staged versions opened, closed when the
	// transaction ends (as the database closes replaced tables).
	versions []planner.Table
}

// checkStagedTarget checks, in a transaction's catalog, that the CTable
// x a statement is about to change is the transaction's staged version
// of it or a file no one changed since the snapshot.
func (c *Catalog) checkStagedTarget(key string, x *ctable.Table) error {
	c.mu.RLock()
	st := c.start.staged[key]
	c.mu.RUnlock()
	if st != nil && x.Path() == st.path {
		return nil
	}
	if !Unchanged(x) {
		return conflictError("table", c.nameOf(key))
	}
	return nil
}

// stage takes a statement's change of the target CTable in a
// transaction: the first one becomes the table's staged version, later
// ones change that version in place.
func (c *Catalog) stage(tg *Target, ch *ctable.Change) error {
	if ch.Deleted() == 0 && ch.Appended() == 0 {
		ch.Abort()
		return nil
	}
	key := strings.ToLower(tg.Name)
	c.mu.RLock()
	st := c.start.staged[key]
	c.mu.RUnlock()
	if st != nil && tg.CT.Path() == st.path {
		if err := ch.Commit(); err != nil {
			return err
		}
	} else {
		real := tg.CT.Path()
		dir, err := os.MkdirTemp(filepath.Dir(real), "."+filepath.Base(real)+".tx-")
		if err != nil {
			ch.Abort()
			return err
		}
		st = &staged{dir: dir, path: filepath.Join(dir, filepath.Base(real)), real: real, read: tg.CT}
		if err := ch.Stage(st.path); err != nil {
			os.RemoveAll(dir)
			return err
		}
		c.mu.Lock()
		c.start.staged[key] = st
		c.mu.Unlock()
	}
	fresh, err := ctable.Open(st.path)
	if err != nil {
		return err
	}
	c.mu.Lock()
	st.versions = append(st.versions, fresh)
	c.mu.Unlock()
	c.Swap(tg.Name, fresh)
	return nil
}

// stagedConflict reports the first staged table whose file was changed
// since the transaction read it (by this process or another); the
// database's c.mu is held.
func (tx *Catalog) stagedConflict() error {
	for k, st := range tx.start.staged {
		if !Unchanged(st.read) {
			return conflictError("table", tx.nameOf(k))
		}
	}
	return nil
}

// publishStaged puts each staged version in place of its table and
// points tx's entry at the published table, opened afresh; the database's
// c.mu and the tables' locks are held.
func (tx *Catalog) publishStaged() error {
	for k, st := range tx.start.staged {
		unlock, err := LockFile(st.real)
		if err != nil {
			return err
		}
		err = ctable.PublishStaged(st.path, st.real)
		unlock()
		if err != nil {
			return err
		}
		fresh, err := OpenCTable(st.real)
		if err != nil {
			return err
		}
		Forget(st.read)
		tx.tables[k] = fresh
	}
	return nil
}

// dropStaged removes the staged versions and hands the tables opened on
// them to the database to close once no statement uses them.
func (tx *Catalog) dropStaged() {
	c := tx.base
	var old []planner.Table
	for _, st := range tx.start.staged {
		os.RemoveAll(st.dir)
		old = append(old, st.versions...)
	}
	if len(old) > 0 {
		c.mu.Lock()
		c.life.retired = append(c.life.retired, old...)
		c.mu.Unlock()
	}
	tx.start.staged = nil
}
