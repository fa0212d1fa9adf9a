package b2sql

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/sql"
)

// Index statements: CREATE INDEX, DROP INDEX, REINDEX (sql/index_stmt.go).
//
// On a CTable (.b2d, .b2z) they build, drop or rebuild python-blosc2 index
// sidecars (ctable.CreateIndex, DropIndex, Reindex): each is a new version
// of the table, published atomically, after which the catalog points at
// it; queries already running keep the version they opened. The default
// kind is FULL: it is the kind b2sql's planner uses beyond block pruning
// (index lookups, ORDER BY … LIMIT from the index), and it carries a block
// summary as well; SUMMARY indexes are built by every CTable write anyway.
// (python-blosc2's own default, BUCKET, is a kind b2sql does not use.)
// One index per column, as in python-blosc2's catalog; a FULL index
// replaces the column's SUMMARY one.
//
// An in-memory table keeps its rows in memory and has nothing to index:
// CREATE INDEX there only records the name (so that scripts written for
// other databases run, and DROP INDEX / REINDEX find it). Parquet files
// cannot hold indexes.

// memIndex is an index name recorded on an in-memory table.
type memIndex struct {
	table  string // lower-case table key
	column string
}

// runIndexStmt runs CREATE INDEX, DROP INDEX or REINDEX.
func (db *DB) runIndexStmt(stmt sql.Statement) (*Rows, error) {
	switch s := stmt.(type) {
	case *sql.CreateIndex:
		return db.createIndex(s)
	case *sql.DropIndex:
		return db.dropIndex(s)
	case *sql.Reindex:
		return db.reindex(s)
	}
	return nil, fmt.Errorf("unexpected statement %T", stmt)
}

func posErr(p sql.Pos, kind error, format string, args ...any) *Error {
	return &Error{Pos: Pos{p.Line, p.Col}, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// indexTable finds the table an index statement names.
func (db *DB) indexTable(name string, pos sql.Pos) (key string, t any, err error) {
	key = strings.ToLower(name)
	tb, ok := catalog{db}.Table(name)
	if !ok {
		return "", nil, posErr(pos, ErrUnknownTable, "unknown table %q", name)
	}
	return key, tb, nil
}

// column resolves a column of a table's schema (case-insensitively, as the
// binder does) to its stored name.
func indexColumn(names []string, table, col string, pos sql.Pos) (string, error) {
	for _, n := range names {
		if strings.EqualFold(n, col) {
			return n, nil
		}
	}
	return "", posErr(pos, ErrUnknownColumn, "unknown column %q in table %q", col, table)
}

func schemaNames(t interface{ Schema() columnar.Schema }) []string {
	var out []string
	for _, f := range t.Schema() {
		out = append(out, f.Name)
	}
	return out
}

// lockCTable takes the table's write locks — in this process, then the
// lock file other processes take too (lock.go), as INSERT and DELETE do —
// and returns the newest version of the CTable registered under key
// (reopened: another DB may have changed the file).
func (db *DB) lockCTable(key string, t *ctable.Table) (*ctable.Table, func(), error) {
	unlockMem := db.writes.lock("table:" + key)
	unlockFile, err := lockFile(t.Path())
	if err != nil {
		unlockMem()
		return nil, nil, err
	}
	unlock := func() { unlockFile(); unlockMem() }
	fresh, err := ctable.Open(t.Path())
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return fresh, unlock, nil
}

// publish reopens the table at path and points key at it.
func (db *DB) publishIndexed(key, path string) error {
	t, err := ctable.Open(path)
	if err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if old, ok := db.tables[key]; ok && old != t {
		db.life.retired = append(db.life.retired, old)
	}
	db.tables[key] = t
	return nil
}

func (db *DB) createIndex(s *sql.CreateIndex) (*Rows, error) {
	if db.settings.readOnly {
		return nil, db.readOnlyError(s.TablePos, "CREATE INDEX")
	}
	key, t, err := db.indexTable(s.Table, s.TablePos)
	if err != nil {
		return nil, err
	}
	switch x := t.(type) {
	case *memTable:
		for i, c := range s.Columns {
			if _, err := indexColumn(schemaNames(x), s.Table, c, s.ColumnPos[i]); err != nil {
				return nil, err
			}
		}
		db.mu.Lock()
		defer db.mu.Unlock()
		if s.Name == "" {
			return valueRows(nil, nil), nil
		}
		name := strings.ToLower(s.Name)
		if _, dup := db.memIndexes[name]; dup {
			if s.IfNotExists {
				return valueRows(nil, nil), nil
			}
			return nil, posErr(s.NamePos, ErrUnsupported, "index %q already exists", s.Name)
		}
		if db.memIndexes == nil {
			db.memIndexes = map[string]memIndex{}
		}
		db.memIndexes[name] = memIndex{table: key, column: s.Columns[0]}
		return valueRows(nil, nil), nil
	case *ctable.Table:
		if len(s.Columns) != 1 {
			return nil, posErr(s.ColumnPos[1], ErrUnsupported, "a CTable index covers one column (python-blosc2 indexes columns one by one)")
		}
		col, err := indexColumn(schemaNames(x), s.Table, s.Columns[0], s.ColumnPos[0])
		if err != nil {
			return nil, err
		}
		if s.Name != "" {
			if other, ok := db.findCTableIndex(s.Name); ok && !(other.key == key && strings.EqualFold(other.info.Column, col)) {
				if s.IfNotExists {
					return valueRows(nil, nil), nil
				}
				return nil, posErr(s.NamePos, ErrUnsupported, "index %q already exists (on %s.%s)", s.Name, other.key, other.info.Column)
			}
		}
		fresh, unlock, err := db.lockCTable(key, x)
		if err != nil {
			return nil, err
		}
		defer unlock()
		err = ctable.CreateIndex(fresh.Path(), ctable.IndexOptions{Column: col, Kind: s.Kind, Name: s.Name})
		fresh.Close()
		if errors.Is(err, ctable.ErrIndexExists) {
			if s.IfNotExists {
				// Another DB may have built it: see its version.
				return valueRows(nil, nil), db.publishIndexed(key, fresh.Path())
			}
			return nil, posErr(s.ColumnPos[0], ErrUnsupported, "column %q of table %q already has an index (DROP INDEX it, or REINDEX)", col, s.Table)
		}
		if err != nil {
			return nil, fmt.Errorf("CREATE INDEX: %w", err)
		}
		return valueRows(nil, nil), db.publishIndexed(key, fresh.Path())
	}
	return nil, posErr(s.TablePos, ErrUnsupported, "CREATE INDEX: table %q cannot hold indexes (CTables .b2d/.b2z can; in-memory tables need none)", s.Table)
}

// ctableIndex is an index found in a CTable's catalog.
type ctableIndex struct {
	key  string
	t    *ctable.Table
	info ctable.IndexInfo
}

// findCTableIndex looks for a named index in every registered CTable.
func (db *DB) findCTableIndex(name string) (ctableIndex, bool) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	keys := make([]string, 0, len(db.tables))
	for k := range db.tables {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ct, ok := db.tables[k].(*ctable.Table)
		if !ok {
			continue
		}
		for _, ix := range ct.Indexes() {
			if strings.EqualFold(ix.Name, name) {
				return ctableIndex{key: k, t: ct, info: ix}, true
			}
		}
	}
	return ctableIndex{}, false
}

// hasIndex reports whether t's catalog holds the index name on col.
func hasIndex(t *ctable.Table, name, col string) bool {
	for _, ix := range t.Indexes() {
		if strings.EqualFold(ix.Name, name) && ix.Column == col {
			return true
		}
	}
	return false
}

func (db *DB) dropIndex(s *sql.DropIndex) (*Rows, error) {
	pos := s.NamePos
	if s.Table != "" {
		pos = s.TablePos
	}
	if db.settings.readOnly {
		return nil, db.readOnlyError(pos, "DROP INDEX")
	}
	var key, col string
	var ct *ctable.Table
	if s.Table != "" {
		k, t, err := db.indexTable(s.Table, s.TablePos)
		if err != nil {
			return nil, err
		}
		x, ok := t.(*ctable.Table)
		if !ok {
			if s.IfExists {
				return valueRows(nil, nil), nil
			}
			return nil, posErr(s.TablePos, ErrUnsupported, "DROP INDEX: table %q has no index sidecars (only CTables .b2d/.b2z do)", s.Table)
		}
		if col, err = indexColumn(schemaNames(x), s.Table, s.Column, s.ColumnPos); err != nil {
			return nil, err
		}
		key, ct = k, x
	} else {
		name := strings.ToLower(s.Name)
		db.mu.Lock()
		if _, ok := db.memIndexes[name]; ok {
			delete(db.memIndexes, name)
			db.mu.Unlock()
			return valueRows(nil, nil), nil
		}
		db.mu.Unlock()
		found, ok := db.findCTableIndex(s.Name)
		if !ok {
			if s.IfExists {
				return valueRows(nil, nil), nil
			}
			return nil, posErr(s.NamePos, ErrUnsupported, "unknown index %q", s.Name)
		}
		key, ct, col = found.key, found.t, found.info.Column
	}
	fresh, unlock, err := db.lockCTable(key, ct)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if s.Table == "" && !hasIndex(fresh, s.Name, col) {
		// Dropped since this DB read the catalog (by another DB).
		fresh.Close()
		if err := db.publishIndexed(key, fresh.Path()); err != nil || s.IfExists {
			return valueRows(nil, nil), err
		}
		return nil, posErr(s.NamePos, ErrUnsupported, "unknown index %q", s.Name)
	}
	err = ctable.DropIndex(fresh.Path(), col)
	fresh.Close()
	if errors.Is(err, ctable.ErrNoIndex) {
		if s.IfExists {
			return valueRows(nil, nil), db.publishIndexed(key, fresh.Path())
		}
		return nil, posErr(s.ColumnPos, ErrUnsupported, "column %q of table %q has no index", col, s.Table)
	}
	if err != nil {
		return nil, fmt.Errorf("DROP INDEX: %w", err)
	}
	return valueRows(nil, nil), db.publishIndexed(key, fresh.Path())
}

func (db *DB) reindex(s *sql.Reindex) (*Rows, error) {
	if db.settings.readOnly {
		return nil, db.readOnlyError(s.Pos, "REINDEX")
	}
	type job struct {
		key  string
		ct   *ctable.Table
		cols []string
	}
	var jobs []job
	switch {
	case s.Target == "":
		// Every index of every CTable.
		db.mu.RLock()
		for k, t := range db.tables {
			if ct, ok := t.(*ctable.Table); ok && len(ct.Indexes()) > 0 {
				jobs = append(jobs, job{key: k, ct: ct})
			}
		}
		db.mu.RUnlock()
		sort.Slice(jobs, func(i, j int) bool { return jobs[i].key < jobs[j].key })
	default:
		if t, ok := (catalog{db}).Table(s.Target); ok {
			key := strings.ToLower(s.Target)
			ct, isCT := t.(*ctable.Table)
			if !isCT {
				if _, mem := t.(*memTable); mem && s.Column == "" {
					return valueRows(nil, nil), nil // nothing is built for memory tables
				}
				return nil, posErr(s.TargetPos, ErrUnsupported, "REINDEX: table %q has no index sidecars (only CTables .b2d/.b2z do)", s.Target)
			}
			jb := job{key: key, ct: ct}
			if s.Column != "" {
				col, err := indexColumn(schemaNames(ct), s.Target, s.Column, s.ColumnPos)
				if err != nil {
					return nil, err
				}
				jb.cols = []string{col}
			}
			jobs = append(jobs, jb)
			break
		}
		db.mu.RLock()
		_, mem := db.memIndexes[strings.ToLower(s.Target)]
		db.mu.RUnlock()
		if mem {
			return valueRows(nil, nil), nil
		}
		found, ok := db.findCTableIndex(s.Target)
		if !ok {
			return nil, posErr(s.TargetPos, ErrUnknownTable, "unknown table or index %q", s.Target)
		}
		jobs = append(jobs, job{key: found.key, ct: found.t, cols: []string{found.info.Column}})
	}
	for _, jb := range jobs {
		err := func() error {
			fresh, unlock, err := db.lockCTable(jb.key, jb.ct)
			if err != nil {
				return err
			}
			defer unlock()
			err = ctable.Reindex(fresh.Path(), jb.cols)
			fresh.Close()
			if errors.Is(err, ctable.ErrNoIndex) {
				return posErr(s.ColumnPos, ErrUnsupported, "column %q of table %q has no index", s.Column, s.Target)
			}
			if err != nil {
				return fmt.Errorf("REINDEX: %w", err)
			}
			return db.publishIndexed(jb.key, fresh.Path())
		}()
		if err != nil {
			return nil, err
		}
	}
	return valueRows(nil, nil), nil
}
