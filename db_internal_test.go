package b2sql

import "github.com/b2sql/b2sql/columnar"

// Hooks for the package's internal tests.

// inFlight reports the statements planning or running.
func (db *DB) inFlight() int { return db.cat.InFlight() }

// createMemTable registers an empty in-memory table with key column sets
// and no other constraints (rules must be nil).
func (db *DB) createMemTable(name string, schema columnar.Schema, rules []any, keys [][]int, replace bool) error {
	return db.cat.CreateMem(name, schema, nil, keys, nil, nil, nil, false, replace)
}
