package b2sql

import (
	"context"
	"os"

	"github.com/b2sql/b2sql/planner"
)

// lifecycle tracks the work in flight on a DB so that Close can stop it and
// release the tables only once nothing uses them. Guarded by DB.mu.
type lifecycle struct {
	closed  bool
	active  int                               // statements planning or running
	running map[*Rows]context.CancelCauseFunc // open result sets, cancelled by Close
	orphans []planner.Table                   // tables to close when active drops to 0
	retired []planner.Table                   // replaced or dropped tables, closed with the DB
	tmpDir  string                            // removed once the orphans are closed
}

// acquire counts a statement in flight; it fails once the DB is closed.
// Every successful acquire is paired with release.
func (db *DB) acquire() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.life.closed {
		return ErrClosed
	}
	db.life.active++
	return nil
}

// release ends a statement; the last one after Close closes the tables.
func (db *DB) release() {
	db.mu.Lock()
	db.life.active--
	var orphans []planner.Table
	var tmp string
	if db.life.closed && db.life.active == 0 {
		orphans, db.life.orphans = db.life.orphans, nil
		tmp, db.life.tmpDir = db.life.tmpDir, ""
	}
	db.mu.Unlock()
	closeTables(orphans, tmp)
}

// attach registers an open Rows (holding its own acquire) so that Close can
// cancel it.
func (db *DB) attach(r *Rows, cancel context.CancelCauseFunc) error {
	if err := db.acquire(); err != nil {
		return err
	}
	db.mu.Lock()
	if db.life.running == nil {
		db.life.running = map[*Rows]context.CancelCauseFunc{}
	}
	db.life.running[r] = cancel
	db.mu.Unlock()
	return nil
}

// detach undoes attach when the Rows closes.
func (db *DB) detach(r *Rows) {
	db.mu.Lock()
	delete(db.life.running, r)
	db.mu.Unlock()
	db.release()
}

// inFlight reports the statements planning or running (for tests).
func (db *DB) inFlight() int {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.life.active
}

// Close closes the DB. Queries still running are cancelled: their Rows
// report ErrClosed from Err, and the tables are released once the last of
// them is closed (Close does not wait for callers to do so). New
// statements fail with ErrClosed. Close is safe to call twice.
func (db *DB) Close() error {
	db.mu.Lock()
	if db.life.closed {
		db.mu.Unlock()
		return nil
	}
	db.life.closed = true
	tables := db.life.retired
	db.life.retired = nil
	for _, t := range db.tables {
		tables = append(tables, t)
	}
	tmp := db.tmpDir
	db.tmpDir = ""
	db.tables = map[string]planner.Table{}
	db.names = map[string]string{}
	cancels := make([]context.CancelCauseFunc, 0, len(db.life.running))
	for _, c := range db.life.running {
		cancels = append(cancels, c)
	}
	if db.life.active > 0 {
		db.life.orphans, db.life.tmpDir = tables, tmp
		tables, tmp = nil, ""
	}
	db.mu.Unlock()
	for _, c := range cancels {
		c(ErrClosed)
	}
	closeTables(tables, tmp)
	return nil
}

// closeTables closes ts, then removes the DB's temporary directory tmp
// (if any) holding tables made by CREATE TABLE.
func closeTables(ts []planner.Table, tmp string) {
	for _, t := range ts {
		if c, ok := t.(interface{ Close() error }); ok {
			c.Close()
		}
	}
	if tmp != "" {
		os.RemoveAll(tmp)
	}
}
