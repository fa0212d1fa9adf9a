package dml

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// In-memory tables: CREATE TABLE in a database without a directory (or
// WITH (FORMAT memory)), filled by INSERT, changed by UPDATE and DELETE.
// PRIMARY KEY and UNIQUE column sets are enforced on them (INSERT fails
// on a duplicate, INSERT OR REPLACE / REPLACE INTO replaces the old row,
// INSERT OR IGNORE keeps it), as SQLite's sqllogictest scripts expect.

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
func checkKeys(t *catalog.MemTable, rows [][]columnar.Value, what, name string, at sql.Pos) error {
	for _, cols := range t.Keys() {
		seen := map[string]bool{}
		for _, r := range rows {
			if s, ok := keyOf(r, cols); ok {
				if seen[s] {
					return &sql.Error{Pos: at, Kind: catalog.ErrConstraint, Msg: fmt.Sprintf("%s: duplicate key %s in table %q", what, keyText(t.Schema(), cols, r), name)}
				}
				seen[s] = true
			}
		}
	}
	return nil
}

// literal renders a value as SQL writes it: strings quoted.
func literal(v columnar.Value) string {
	switch {
	case v.Null:
		return "NULL"
	case v.Type.IsString():
		return "'" + strings.ReplaceAll(v.S, "'", "''") + "'"
	}
	return v.String()
}
