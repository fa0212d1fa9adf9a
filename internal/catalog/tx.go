package catalog

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/planner"
)

// A transaction (BEGIN … COMMIT) works on its own Catalog, made by Begin:
// a copy of the database catalog's names taken when it began, pointing at
// the same tables, views, sequences and types. Reading through it is
// reading that snapshot; writing through it changes only the copy:
//
//   - an in-memory table is represented by a transaction's version of it
//     (MemTable.txVersion: the same immutable rows, no copy), which the
//     statements change as they change any MemTable, by installing new
//     row slices; the database's table is not touched;
//   - a table, view, sequence, macro, type, index name or comment created
//     or dropped changes the copy's maps only;
//   - a CTable or any file-backed table is read as the version the
//     snapshot names (the database keeps a replaced version open until
//     the transaction ends: Begin holds an Acquire); a CTable's rows
//     changed (INSERT, UPDATE, DELETE, COPY … FROM) or indexes built or
//     dropped, and a file table created, go to a staged version beside
//     the table's file that COMMIT publishes, and a file table dropped
//     loses its file at COMMIT (tx_files.go); ATTACH registers its
//     tables, and its directory, in the copy (COMMIT publishes the
//     directory with the names; ROLLBACK closes the tables it opened).
//
// CommitTransaction publishes the copy's differences into the database's catalog at
// once, under its lock and the write locks of the tables written, after
// checking that nothing the transaction changed was changed by another
// since the snapshot (ErrConflict): all of it is applied, or none.
// RollbackTransaction drops the copy. The pending state is the new table versions
// themselves; tables the transaction did not touch are shared.

// InTransaction reports whether c is a transaction's catalog.
func (c *Catalog) InTransaction() bool { return c.base != nil }

// Begin starts a transaction: it returns the transaction's catalog (see
// above), which holds an Acquire of c until CommitTransaction or RollbackTransaction.
func (c *Catalog) Begin() (*Catalog, error) {
	if c.base != nil {
		return nil, fmt.Errorf("b2sql: Begin on a transaction's catalog")
	}
	if err := c.Acquire(); err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	start := &txState{
		tables: maps.Clone(c.tables), names: maps.Clone(c.names), views: maps.Clone(c.views),
		tempViews: maps.Clone(c.tempViews), types: maps.Clone(c.types), seqs: maps.Clone(c.seqs),
		tempSeqs: maps.Clone(c.tempSeqs), macros: maps.Clone(c.macros), comments: maps.Clone(c.comments),
		memIndexes: maps.Clone(c.memIndexes), schemas: slices.Clone(c.schemas), dbs: maps.Clone(c.dbs), dir: c.dir,
		staged: map[string]*staged{},
	}
	tx := &Catalog{
		root: c.root, readOnly: c.readOnly, warn: c.warn, base: c, start: start,
		dir: c.dir, tables: make(map[string]planner.Table, len(c.tables)), names: maps.Clone(c.names),
		views: maps.Clone(c.views), tempViews: maps.Clone(c.tempViews), types: maps.Clone(c.types),
		seqs: maps.Clone(c.seqs), tempSeqs: maps.Clone(c.tempSeqs), macros: maps.Clone(c.macros),
		comments: maps.Clone(c.comments), memIndexes: maps.Clone(c.memIndexes), schemas: slices.Clone(c.schemas),
		dbs: maps.Clone(c.dbs),
	}
	for k, t := range c.tables {
		if m, ok := t.(*MemTable); ok {
			t = m.txVersion() // the rows as of now, whatever others append later
		}
		tx.tables[k] = t
	}
	return tx, nil
}

// RollbackTransaction ends the transaction of the catalog tx without applying it.
func (tx *Catalog) RollbackTransaction() {
	if tx.base == nil || tx.start == nil {
		return
	}
	if !tx.committed {
		tx.closeOpened()
	}
	tx.dropStaged()
	tx.start = nil
	tx.base.Release()
}

// CommitTransaction applies the transaction of the catalog tx to the database's
// catalog, all of it or (on a conflict) none, and ends it either way.
func (tx *Catalog) CommitTransaction() error {
	if tx.base == nil || tx.start == nil {
		return nil
	}
	defer tx.RollbackTransaction()
	c := tx.base
	tx.mu.Lock()
	defer tx.mu.Unlock()
	// The tables written take their write locks (sorted: two commits
	// lock in one order), so that no statement of another session
	// appends between the check and the publication.
	changed := tx.changedTables()
	for _, k := range changed {
		defer c.Lock("table:" + k)()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.life.closed {
		return ErrClosed
	}
	if err := tx.conflicts(changed); err != nil {
		return err
	}
	if err := tx.stagedConflict(); err != nil {
		return err
	}
	if tx.dir != tx.start.dir && c.dir != tx.start.dir {
		return conflictError("directory", tx.dir) // ATTACH in two sessions
	}
	// The files first: a failure there leaves the database's names as
	// they were (and the tables published before it, see tx_files.go).
	tx.unlinkDropped()
	if err := tx.publishStaged(); err != nil {
		return err
	}
	var retired []planner.Table
	for _, k := range changed {
		s, cur := tx.start.tables[k], tx.tables[k]
		if m, ok := cur.(*MemTable); ok && m.origin != nil && planner.Table(m.origin) == s {
			m.origin.SetRows(m.Snapshot()) // new rows for the same table: its indexes and names stay
			continue
		}
		if s != nil {
			retired = append(retired, s)
		}
		if cur == nil {
			delete(c.tables, k)
			continue
		}
		if m, ok := cur.(*MemTable); ok {
			m.origin = nil // a table of the database from now on
		}
		c.tables[k] = cur
	}
	c.life.retired = append(c.life.retired, retired...)
	apply(&c.names, tx.start.names, tx.names, eqComparable)
	apply(&c.views, tx.start.views, tx.views, eqComparable)
	apply(&c.tempViews, tx.start.tempViews, tx.tempViews, eqComparable)
	apply(&c.types, tx.start.types, tx.types, eqComparable)
	apply(&c.seqs, tx.start.seqs, tx.seqs, eqComparable)
	apply(&c.tempSeqs, tx.start.tempSeqs, tx.tempSeqs, eqComparable)
	apply(&c.macros, tx.start.macros, tx.macros, eqComparable)
	apply(&c.comments, tx.start.comments, tx.comments, eqComparable)
	apply(&c.memIndexes, tx.start.memIndexes, tx.memIndexes, eqIndex)
	c.schemas = applySet(c.schemas, tx.start.schemas, tx.schemas)
	apply(&c.dbs, tx.start.dbs, tx.dbs, eqComparable)
	if tx.dir != tx.start.dir {
		c.dir = tx.dir
	}
	tx.committed = true
	return nil
}

// closeOpened hands the database the file tables the transaction opened
// (ATTACH) and drops without COMMIT, to close once no statement uses
// them; staged versions are dropStaged's.
func (tx *Catalog) closeOpened() {
	had := map[planner.Table]bool{}
	for _, t := range tx.start.tables {
		had[t] = true
	}
	var opened []planner.Table
	tx.mu.RLock()
	for k, t := range tx.tables {
		if _, mem := t.(*MemTable); !mem && !had[t] && tx.start.staged[k] == nil {
			opened = append(opened, t)
		}
	}
	tx.mu.RUnlock()
	if len(opened) > 0 {
		c := tx.base
		c.mu.Lock()
		c.life.retired = append(c.life.retired, opened...)
		c.mu.Unlock()
	}
}

// changedTables lists, sorted, the keys whose table the transaction
// created, dropped, replaced or wrote rows of; tx.mu is held.
func (tx *Catalog) changedTables() []string {
	var out []string
	for k, cur := range tx.tables {
		s := tx.start.tables[k]
		if m, ok := cur.(*MemTable); ok && m.origin != nil && planner.Table(m.origin) == s {
			if m.changed() {
				out = append(out, k)
			}
			continue
		}
		if cur != s {
			out = append(out, k)
		}
	}
	for k := range tx.start.tables {
		if _, ok := tx.tables[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// conflicts checks that no table among changed nor any name the
// transaction changed was changed in the database since the snapshot;
// the database's c.mu is held.
func (tx *Catalog) conflicts(changed []string) error {
	c := tx.base
	for _, k := range changed {
		s := tx.start.tables[k]
		now, ok := c.tables[k]
		same := ok == (s != nil) && (!ok || now == s)
		if m, isMem := tx.tables[k].(*MemTable); same && isMem && m.origin != nil && planner.Table(m.origin) == s {
			m.origin.mu.RLock()
			same = m.origin.ver == m.from
			m.origin.mu.RUnlock()
		}
		if !same {
			return conflictError("table", tx.nameOf(k))
		}
	}
	checks := []struct {
		what string
		keys []string
	}{
		{"view", clashes(c.views, tx.start.views, tx.views, eqComparable)},
		{"type", clashes(c.types, tx.start.types, tx.types, eqComparable)},
		{"sequence", clashes(c.seqs, tx.start.seqs, tx.seqs, eqComparable)},
		{"macro", clashes(c.macros, tx.start.macros, tx.macros, eqComparable)},
		{"index", clashes(c.memIndexes, tx.start.memIndexes, tx.memIndexes, eqIndex)},
		{"database", clashes(c.dbs, tx.start.dbs, tx.dbs, eqComparable)},
	}
	for _, ch := range checks {
		if len(ch.keys) > 0 {
			return conflictError(ch.what, ch.keys[0])
		}
	}
	return nil
}

func eqComparable[V comparable](a, b V) bool { return a == b }

func eqIndex(a, b MemIndex) bool {
	return a.Name == b.Name && a.Table == b.Table && slices.Equal(a.Columns, b.Columns)
}

// diff lists, sorted, the keys whose entry differs between start and cur
// (added, dropped or changed).
func diff[V any](start, cur map[string]V, eq func(a, b V) bool) []string {
	var out []string
	for k, v := range cur {
		if s, ok := start[k]; !ok || !eq(s, v) {
			out = append(out, k)
		}
	}
	for k := range start {
		if _, ok := cur[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// clashes lists the keys the transaction changed (start → cur) whose
// entry in the database (now) is no longer the one of start.
func clashes[V any](now, start, cur map[string]V, eq func(a, b V) bool) []string {
	var out []string
	for _, k := range diff(start, cur, eq) {
		n, nok := now[k]
		s, sok := start[k]
		if nok != sok || nok && !eq(n, s) {
			out = append(out, k)
		}
	}
	return out
}

// apply makes the database's map *now take the transaction's changes
// (start → cur).
func apply[V any](now *map[string]V, start, cur map[string]V, eq func(a, b V) bool) {
	for _, k := range diff(start, cur, eq) {
		v, ok := cur[k]
		if !ok {
			delete(*now, k)
			continue
		}
		if *now == nil {
			*now = map[string]V{}
		}
		(*now)[k] = v
	}
}

// applySet applies the additions and removals start → cur to now, a
// list of names compared without case.
func applySet(now, start, cur []string) []string {
	has := func(list []string, s string) bool {
		return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
	}
	out := slices.DeleteFunc(slices.Clone(now), func(s string) bool { return has(start, s) && !has(cur, s) })
	for _, s := range cur {
		if !has(start, s) && !has(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// db is the database's catalog: c, or the one c is a transaction of.
func (c *Catalog) db() *Catalog {
	if c.base != nil {
		return c.base
	}
	return c
}

// DropTable is Drop for DROP TABLE: inside a transaction the table
// returned, whose files the statement removes (at COMMIT, Unlink), is
// the one the transaction read, not its staged version (nil for a table
// the transaction created).
func (c *Catalog) DropTable(name string) (planner.Table, bool) {
	old, ok := c.Drop(name)
	if !ok || c.base == nil {
		return old, ok
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.unstage(strings.ToLower(name), old), true
}
