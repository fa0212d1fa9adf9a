package catalog

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/planner"
)

// A CTable changed inside a transaction is changed as outside one (a
// ctable.Change built beside the table), except that the new version is
// not published over the table: Change.Stage moves it into a hidden
// directory next to the table, ".<file>.tx-*", where the transaction's
// later statements read and change it. A file table created inside a
// transaction (CREATE TABLE, CREATE TABLE … AS) is written in such a
// directory from the start (StagePath), and an index statement works on
// the staged version, a copy of the table staged first when the
// transaction has not changed it yet (stageForIndex). COMMIT removes the files of the
// tables the transaction dropped (Unlink), then publishes each staged
// version over its table with ctable.PublishStaged (one atomic exchange
// or rename per file) after checking that no one changed the table since
// the transaction read it; ROLLBACK, or a failed COMMIT, removes the
// staged versions and leaves the tables' files as they were.

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

// stage takes a statement's change ch of the CTable ct registered as
// name in a transaction: the first one becomes the table's staged version, later
// ones change that version in place.
func (c *Catalog) stage(name string, ct *ctable.Table, ch *ctable.Change) error {
	if ch.Deleted() == 0 && ch.Appended() == 0 {
		ch.Abort()
		return nil
	}
	key := strings.ToLower(name)
	c.mu.RLock()
	st := c.start.staged[key]
	c.mu.RUnlock()
	if st != nil && ct.Path() == st.path {
		if err := ch.Commit(); err != nil {
			return err
		}
	} else {
		real := ct.Path()
		dir, err := os.MkdirTemp(filepath.Dir(real), "."+filepath.Base(real)+".tx-")
		if err != nil {
			ch.Abort()
			return err
		}
		st = &staged{dir: dir, path: filepath.Join(dir, filepath.Base(real)), real: real, read: ct}
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
	c.Swap(name, fresh)
	return nil
}

// stagedConflict reports the first staged table whose file was changed
// since the transaction read it (by this process or another); the
// database's c.mu is held.
func (tx *Catalog) stagedConflict() error {
	for k, st := range tx.start.staged {
		if st.read != nil && !Unchanged(st.read) {
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
		fresh, err := OpenFile(st.real)
		if err != nil {
			return err
		}
		if st.read != nil {
			Forget(st.read)
		}
		tx.tables[k] = fresh
	}
	return nil
}

// dropStaged removes the staged versions and hands the tables opened on
// them to the database to close once no statement uses them.
func (tx *Catalog) dropStaged() {
	c := tx.base
	var old []planner.Table
	for k, st := range tx.start.staged {
		os.RemoveAll(st.dir)
		old = append(old, st.versions...)
		if t := tx.tables[k]; t != nil {
			old = append(old, t) // made by CREATE TABLE; the database's own (published) stays open
		}
	}
	for _, st := range tx.start.discarded {
		os.RemoveAll(st.dir)
		old = append(old, st.versions...)
	}
	if len(old) > 0 {
		c.mu.Lock()
		live := map[planner.Table]bool{}
		for _, t := range c.tables {
			live[t] = true
		}
		for _, t := range old {
			if !live[t] { // a published table is the database's now
				c.life.retired = append(c.life.retired, t)
			}
		}
		c.mu.Unlock()
	}
	tx.start.staged, tx.start.discarded = nil, nil
}

// StagePath is where a statement creating the table file real for the
// table name writes it: real itself, or inside a transaction the place
// in a new hidden directory beside it from which COMMIT publishes it.
func (c *Catalog) StagePath(name, real string) (string, error) {
	if c.base == nil {
		return real, nil
	}
	dir, err := os.MkdirTemp(filepath.Dir(real), "."+filepath.Base(real)+".tx-")
	if err != nil {
		return "", err
	}
	st := &staged{dir: dir, path: filepath.Join(dir, filepath.Base(real)), real: real}
	key := strings.ToLower(name)
	c.mu.Lock()
	if old := c.start.staged[key]; old != nil {
		c.start.discarded = append(c.start.discarded, old) // replaced again in this transaction
	}
	c.start.staged[key] = st
	c.mu.Unlock()
	return st.path, nil
}

// unstage forgets the staged version of a table the transaction drops
// and returns the table whose files DROP TABLE removes: the one the
// transaction read (a table it created has none); c.mu is held.
func (c *Catalog) unstage(key string, old planner.Table) planner.Table {
	st := c.start.staged[key]
	if st == nil {
		return old
	}
	delete(c.start.staged, key)
	st.versions = append(st.versions, old)
	c.start.discarded = append(c.start.discarded, st)
	if st.read != nil {
		return st.read
	}
	return nil
}

// Unlink removes the files of a dropped table, at once or, inside a
// transaction, at COMMIT. strict reports removal errors (outside a
// transaction only); otherwise they are ignored, as for files that may
// not exist.
func (c *Catalog) Unlink(strict bool, paths ...string) error {
	if c.base != nil {
		c.mu.Lock()
		c.start.unlink = append(c.start.unlink, paths...)
		c.mu.Unlock()
		return nil
	}
	for _, p := range paths {
		if err := os.RemoveAll(p); err != nil && strict {
			return err
		}
	}
	return nil
}

// unlinkDropped removes the files of the tables the transaction dropped,
// but not a file a table it created under the same name will take.
func (tx *Catalog) unlinkDropped() {
	for _, p := range tx.start.unlink {
		taken := false
		for _, st := range tx.start.staged {
			taken = taken || filepath.Clean(st.real) == filepath.Clean(p)
		}
		if !taken {
			os.RemoveAll(p)
		}
	}
}

// nameOf is the name the transaction or its snapshot registered key
// under.
func (tx *Catalog) nameOf(key string) string {
	if n, ok := tx.names[key]; ok {
		return n
	}
	if n, ok := tx.start.names[key]; ok {
		return n
	}
	return key
}

// FileExists reports whether the file at path exists as the statement's
// catalog sees it: inside a transaction, a file of a table it dropped
// does not (the file goes at COMMIT).
func (c *Catalog) FileExists(path string) bool {
	if c.base != nil {
		c.mu.RLock()
		dropped := slices.ContainsFunc(c.start.unlink, func(p string) bool { return filepath.Clean(p) == filepath.Clean(path) })
		c.mu.RUnlock()
		if dropped {
			return false
		}
	}
	_, err := os.Stat(path)
	return err == nil
}

// stageForIndex returns the staged version of the CTable t registered as
// name that an index statement of a transaction changes: the one the
// transaction staged before, or a copy of t staged now (a file changed
// since the transaction read it is a conflict).
func (c *Catalog) stageForIndex(name string, t *ctable.Table) (string, error) {
	key := strings.ToLower(name)
	c.mu.RLock()
	st := c.start.staged[key]
	c.mu.RUnlock()
	if st != nil && t.Path() == st.path {
		return st.path, nil
	}
	if err := c.checkStagedTarget(key, t); err != nil {
		return "", err
	}
	ch, err := ctable.Begin(t.Path())
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(filepath.Dir(t.Path()), "."+filepath.Base(t.Path())+".tx-")
	if err != nil {
		ch.Abort()
		return "", err
	}
	st = &staged{dir: dir, path: filepath.Join(dir, filepath.Base(t.Path())), real: t.Path(), read: t}
	if err := ch.StageCopy(st.path); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	c.mu.Lock()
	c.start.staged[key] = st
	c.mu.Unlock()
	return st.path, nil
}

// keepStaged records t, a staged version an index statement reopened, to
// be closed when the transaction ends.
func (c *Catalog) keepStaged(name string, t planner.Table) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.start.staged[strings.ToLower(name)]; st != nil {
		st.versions = append(st.versions, t)
	}
}
