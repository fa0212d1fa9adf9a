package b2sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// In-memory tables made by CREATE TABLE and filled by INSERT … VALUES, as
// SQLite's sqllogictest scripts need (slt_test.go). They are memTables
// registered in the DB's catalog; the SQL front end does not route DDL to
// them yet, so only the test runner creates them.

// createMemTable registers an empty in-memory table.
func (db *DB) createMemTable(name string, schema columnar.Schema) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	key := strings.ToLower(name)
	if _, ok := db.tables[key]; ok {
		return fmt.Errorf("table %q already exists", name)
	}
	db.tables[key] = &memTable{schema: schema}
	db.names[key] = name
	return nil
}

// dropMemTable removes an in-memory table.
func (db *DB) dropMemTable(name string) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	key := strings.ToLower(name)
	if _, ok := db.tables[key].(*memTable); !ok {
		return fmt.Errorf("no in-memory table %q", name)
	}
	delete(db.tables, key)
	delete(db.names, key)
	return nil
}

// insertMem appends rows to an in-memory table; cols names the columns the
// values are for (nil: all, in order), the others get NULL. Values are
// cast to the column types.
func (db *DB) insertMem(name string, cols []string, rows [][]columnar.Value) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	t, ok := db.tables[strings.ToLower(name)].(*memTable)
	if !ok {
		return fmt.Errorf("no in-memory table %q", name)
	}
	pos := make([]int, 0, len(t.schema))
	if cols == nil {
		for i := range t.schema {
			pos = append(pos, i)
		}
	}
	for _, c := range cols {
		found := -1
		for i, f := range t.schema {
			if strings.EqualFold(f.Name, c) {
				found = i
			}
		}
		if found < 0 {
			return fmt.Errorf("table %q has no column %q", name, c)
		}
		pos = append(pos, found)
	}
	for _, r := range rows {
		if len(r) != len(pos) {
			return fmt.Errorf("%d values for %d columns", len(r), len(pos))
		}
		row := make([]columnar.Value, len(t.schema))
		for i, f := range t.schema {
			row[i] = columnar.NullValue(f.Type)
		}
		for k, v := range r {
			f := t.schema[pos[k]]
			if v.Null {
				continue
			}
			x, err := executor.CastValue(v, f.Type)
			if err != nil {
				return fmt.Errorf("column %q: %w", f.Name, err)
			}
			row[pos[k]] = x
		}
		t.rows = append(t.rows, row)
	}
	return nil
}
