package b2sql

import (
	"context"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
)

// In-memory tables: CREATE TABLE in a database without a directory (or
// WITH (FORMAT memory)), filled by INSERT, changed by UPDATE and DELETE.
// PRIMARY KEY and UNIQUE column sets are enforced on them (INSERT fails
// on a duplicate, INSERT OR REPLACE / REPLACE INTO replaces the old row,
// INSERT OR IGNORE keeps it), as SQLite's sqllogictest scripts expect.

// createMemTable registers an empty in-memory table; replace allows an
// existing table of that name to be replaced.
func (db *DB) createMemTable(name string, schema columnar.Schema, rules []ctable.Rules, keys [][]int, replace bool) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	key := strings.ToLower(name)
	if old, ok := db.tables[key]; ok {
		if !replace {
			return fmt.Errorf("table %q already exists", name)
		}
		db.life.retired = append(db.life.retired, old)
	}
	db.tables[key] = &memTable{schema: schema, rules: rules, keys: keys}
	db.names[key] = name
	return nil
}

// keyOf renders the key columns of a row, or ok false when one is NULL
// (NULLs never collide, as in SQL).
func keyOf(row []columnar.Value, cols []int) (string, bool) {
	var sb strings.Builder
	for _, c := range cols {
		v := row[c]
		if v.Null {
			return "", false
		}
		sb.WriteString(v.Type.String())
		sb.WriteByte(':')
		sb.WriteString(v.String())
		sb.WriteByte(0)
	}
	return sb.String(), true
}

// keyIndex maps each key set's values to the row holding them.
type keyIndex []map[string]int

func newKeyIndex(keys [][]int, rows [][]columnar.Value, dead []bool) keyIndex {
	ix := make(keyIndex, len(keys))
	for k, cols := range keys {
		ix[k] = map[string]int{}
		for i, r := range rows {
			if dead != nil && dead[i] {
				continue
			}
			if s, ok := keyOf(r, cols); ok {
				ix[k][s] = i
			}
		}
	}
	return ix
}

// insertMem appends the query's rows to an in-memory table, with key
// handling; it returns the rows inserted.
func (db *DB) insertMem(ctx context.Context, tg *dmlTarget, rows *Rows, ins *inserter, replace, ignore bool) (int64, error) {
	t := tg.mem
	var add [][]columnar.Value
	for b := rows.NextBatch(); b != nil; b = rows.NextBatch() {
		tb, err := ins.convert(b)
		if err != nil {
			return 0, err
		}
		for k := 0; k < tb.Live(); k++ {
			r := tb.Row(k)
			row := make([]columnar.Value, len(tb.Cols))
			for i := range tb.Cols {
				row[i] = tb.Cols[i].Value(r)
			}
			add = append(add, row)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(t.keys) == 0 {
		t.appendRows(add)
		return int64(len(add)), nil
	}
	all := append([][]columnar.Value(nil), t.snapshot()...)
	dead := make([]bool, len(all), len(all)+len(add))
	ix := newKeyIndex(t.keys, all, nil)
	n := int64(0)
	removed := false
	for ri, row := range add {
		clash := -1
		for k, cols := range t.keys {
			if s, ok := keyOf(row, cols); ok {
				if i, hit := ix[k][s]; hit && !dead[i] {
					clash = i
					if !replace && !ignore {
						return 0, &Error{Pos: ins.at, Kind: ErrConstraint, Msg: fmt.Sprintf("%s: row %d: duplicate key %s in table %q", ins.what, ri+1, keyText(t.schema, cols, row), tg.name)}
					}
					if replace {
						dead[i], removed = true, true
					}
				}
			}
		}
		if clash >= 0 && ignore {
			continue
		}
		all = append(all, row)
		dead = append(dead, false)
		for k, cols := range t.keys {
			if s, ok := keyOf(row, cols); ok {
				ix[k][s] = len(all) - 1
			}
		}
		n++
	}
	if !removed {
		t.appendRows(all[len(t.snapshot()):])
		return n, nil
	}
	keep := make([][]columnar.Value, 0, len(all))
	for i, r := range all {
		if !dead[i] {
			keep = append(keep, r)
		}
	}
	t.setRows(keep)
	return n, nil
}

// keyText renders a key for an error: (x, y) = (1, 'a').
func keyText(schema columnar.Schema, cols []int, row []columnar.Value) string {
	var names, vals []string
	for _, c := range cols {
		names = append(names, schema[c].Name)
		vals = append(vals, literal(row[c]))
	}
	return "(" + strings.Join(names, ", ") + ") = (" + strings.Join(vals, ", ") + ")"
}

// checkKeys verifies that rows hold no duplicate key.
func checkKeys(t *memTable, rows [][]columnar.Value, what, name string, at Pos) error {
	for _, cols := range t.keys {
		seen := map[string]bool{}
		for _, r := range rows {
			if s, ok := keyOf(r, cols); ok {
				if seen[s] {
					return &Error{Pos: at, Kind: ErrConstraint, Msg: fmt.Sprintf("%s: duplicate key %s in table %q", what, keyText(t.schema, cols, r), name)}
				}
				seen[s] = true
			}
		}
	}
	return nil
}
