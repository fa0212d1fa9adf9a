package dml

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/internal/catalog"
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

func posErr(p sql.Pos, kind error, format string, args ...any) *sql.Error {
	return &sql.Error{Pos: p, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// indexTable finds the table an index statement names.
func indexTable(cat *catalog.Catalog, name string, pos sql.Pos) (key string, t any, err error) {
	key = strings.ToLower(name)
	tb, ok := cat.Table(name)
	if !ok {
		return "", nil, posErr(pos, sql.ErrUnknownTable, "unknown table %q", name)
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
	return "", posErr(pos, sql.ErrUnknownColumn, "unknown column %q in table %q", col, table)
}

func schemaNames(t interface{ Schema() columnar.Schema }) []string {
	var out []string
	for _, f := range t.Schema() {
		out = append(out, f.Name)
	}
	return out
}

func createIndex(cat *catalog.Catalog, s *sql.CreateIndex) error {
	if cat.ReadOnly() {
		return catalog.ReadOnlyError(s.TablePos, "CREATE INDEX")
	}
	key, t, err := indexTable(cat, s.Table, s.TablePos)
	if err != nil {
		return err
	}
	switch x := t.(type) {
	case *catalog.MemTable:
		cols := make([]string, len(s.Columns))
		for i, c := range s.Columns {
			if cols[i], err = indexColumn(schemaNames(x), s.Table, c, s.ColumnPos[i]); err != nil {
				return err
			}
		}
		if s.Name == "" {
			return nil
		}
		if !cat.AddMemIndex(s.Name, catalog.MemIndex{Name: s.Name, Table: key, Columns: cols}) {
			if s.IfNotExists {
				return nil
			}
			return posErr(s.NamePos, sql.ErrUnsupported, "index %q already exists", s.Name)
		}
		return nil
	case *ctable.Table:
		if len(s.Columns) != 1 {
			return posErr(s.ColumnPos[1], sql.ErrUnsupported, "a CTable index covers one column (python-blosc2 indexes columns one by one)")
		}
		col, err := indexColumn(schemaNames(x), s.Table, s.Columns[0], s.ColumnPos[0])
		if err != nil {
			return err
		}
		if s.Name != "" {
			if other, ok := cat.FindCTableIndex(s.Name); ok && !(other.Table == key && strings.EqualFold(other.Info.Column, col)) {
				if s.IfNotExists {
					return nil
				}
				return posErr(s.NamePos, sql.ErrUnsupported, "index %q already exists (on %s.%s)", s.Name, other.Table, other.Info.Column)
			}
		}
		fresh, unlock, err := cat.LockCTable(key, x)
		if err != nil {
			return err
		}
		defer unlock()
		err = ctable.CreateIndex(fresh.Path(), ctable.IndexOptions{Column: col, Kind: s.Kind, Name: s.Name})
		fresh.Close()
		if errors.Is(err, ctable.ErrIndexExists) {
			if s.IfNotExists {
				// Another DB may have built it: see its version.
				return cat.Republish(key, fresh.Path())
			}
			return posErr(s.ColumnPos[0], sql.ErrUnsupported, "column %q of table %q already has an index (DROP INDEX it, or REINDEX)", col, s.Table)
		}
		if err != nil {
			return fmt.Errorf("CREATE INDEX: %w", err)
		}
		if s.Name != "" {
			cat.ForgetIndexComment(s.Name) // a new index starts without one
		}
		return cat.Republish(key, fresh.Path())
	}
	return posErr(s.TablePos, sql.ErrUnsupported, "CREATE INDEX: table %q cannot hold indexes (CTables .b2d/.b2z can; in-memory tables need none)", s.Table)
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

func dropIndex(cat *catalog.Catalog, s *sql.DropIndex) error {
	pos := s.NamePos
	if s.Table != "" {
		pos = s.TablePos
	}
	if cat.ReadOnly() {
		return catalog.ReadOnlyError(pos, "DROP INDEX")
	}
	var key, col string
	var ct *ctable.Table
	if s.Table != "" {
		k, t, err := indexTable(cat, s.Table, s.TablePos)
		if err != nil {
			return err
		}
		x, ok := t.(*ctable.Table)
		if !ok {
			if s.IfExists {
				return nil
			}
			return posErr(s.TablePos, sql.ErrUnsupported, "DROP INDEX: table %q has no index sidecars (only CTables .b2d/.b2z do)", s.Table)
		}
		if col, err = indexColumn(schemaNames(x), s.Table, s.Column, s.ColumnPos); err != nil {
			return err
		}
		key, ct = k, x
	} else {
		if cat.DropMemIndex(s.Name) {
			return nil
		}
		found, ok := cat.FindCTableIndex(s.Name)
		if !ok {
			if s.IfExists {
				return nil
			}
			return posErr(s.NamePos, sql.ErrUnsupported, "unknown index %q", s.Name)
		}
		key, ct, col = found.Table, found.T, found.Info.Column
	}
	fresh, unlock, err := cat.LockCTable(key, ct)
	if err != nil {
		return err
	}
	defer unlock()
	if s.Table == "" && !hasIndex(fresh, s.Name, col) {
		// Dropped since this DB read the catalog (by another DB).
		fresh.Close()
		if err := cat.Republish(key, fresh.Path()); err != nil || s.IfExists {
			return err
		}
		return posErr(s.NamePos, sql.ErrUnsupported, "unknown index %q", s.Name)
	}
	for _, ix := range fresh.Indexes() {
		if ix.Column == col {
			cat.ForgetIndexComment(ix.Name)
		}
	}
	err = ctable.DropIndex(fresh.Path(), col)
	fresh.Close()
	if errors.Is(err, ctable.ErrNoIndex) {
		if s.IfExists {
			return cat.Republish(key, fresh.Path())
		}
		return posErr(s.ColumnPos, sql.ErrUnsupported, "column %q of table %q has no index", col, s.Table)
	}
	if err != nil {
		return fmt.Errorf("DROP INDEX: %w", err)
	}
	return cat.Republish(key, fresh.Path())
}

func reindex(cat *catalog.Catalog, s *sql.Reindex) error {
	if cat.ReadOnly() {
		return catalog.ReadOnlyError(s.Pos, "REINDEX")
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
		for k, ct := range cat.CTables() {
			if len(ct.Indexes()) > 0 {
				jobs = append(jobs, job{key: k, ct: ct})
			}
		}
		sort.Slice(jobs, func(i, j int) bool { return jobs[i].key < jobs[j].key })
	default:
		if t, ok := cat.Table(s.Target); ok {
			key := strings.ToLower(s.Target)
			ct, isCT := t.(*ctable.Table)
			if !isCT {
				if _, mem := t.(*catalog.MemTable); mem && s.Column == "" {
					return nil // nothing is built for memory tables
				}
				return posErr(s.TargetPos, sql.ErrUnsupported, "REINDEX: table %q has no index sidecars (only CTables .b2d/.b2z do)", s.Target)
			}
			jb := job{key: key, ct: ct}
			if s.Column != "" {
				col, err := indexColumn(schemaNames(ct), s.Target, s.Column, s.ColumnPos)
				if err != nil {
					return err
				}
				jb.cols = []string{col}
			}
			jobs = append(jobs, jb)
			break
		}
		if cat.HasMemIndex(s.Target) {
			return nil
		}
		found, ok := cat.FindCTableIndex(s.Target)
		if !ok {
			return posErr(s.TargetPos, sql.ErrUnknownTable, "unknown table or index %q", s.Target)
		}
		jobs = append(jobs, job{key: found.Table, ct: found.T, cols: []string{found.Info.Column}})
	}
	for _, jb := range jobs {
		err := func() error {
			fresh, unlock, err := cat.LockCTable(jb.key, jb.ct)
			if err != nil {
				return err
			}
			defer unlock()
			err = ctable.Reindex(fresh.Path(), jb.cols)
			fresh.Close()
			if errors.Is(err, ctable.ErrNoIndex) {
				return posErr(s.ColumnPos, sql.ErrUnsupported, "column %q of table %q has no index", s.Column, s.Target)
			}
			if err != nil {
				return fmt.Errorf("REINDEX: %w", err)
			}
			return cat.Republish(jb.key, fresh.Path())
		}()
		if err != nil {
			return err
		}
	}
	return nil
}
