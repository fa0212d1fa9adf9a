package dml

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
)

// insertPositions maps the columns s lists (all of the table's, in order,
// when it lists none) to the table's: pos[k] is the column the query's
// k-th column fills.
func insertPositions(schema columnar.Schema, s *sql.Insert, table string) ([]int, error) {
	var pos []int
	if s.Cols == nil {
		for i := range schema {
			pos = append(pos, i)
		}
		return pos, nil
	}
	seen := map[int]bool{}
	for k, c := range s.Cols {
		i := schema.Index(c)
		if i < 0 {
			for j, f := range schema {
				if strings.EqualFold(f.Name, c) {
					i = j
				}
			}
		}
		cp := s.ColsPos[k]
		if i < 0 {
			return nil, &sql.Error{Pos: cp, Kind: sql.ErrUnknownColumn, Msg: fmt.Sprintf("table %q has no column %q", table, c)}
		}
		if seen[i] {
			return nil, &sql.Error{Pos: cp, Kind: sql.ErrSyntax, Msg: fmt.Sprintf("column %q is listed twice", c)}
		}
		seen[i] = true
		pos = append(pos, i)
	}
	return pos, nil
}

// byName maps the query's columns to the table's by name (INSERT … BY
// NAME): pos[k] is the column that result column k fills.
func byName(table string, schema columnar.Schema, names []string, at sql.Pos) ([]int, error) {
	pos := make([]int, len(names))
	seen := map[int]bool{}
	for k, n := range names {
		pos[k] = -1
		for i, f := range schema {
			if strings.EqualFold(f.Name, n) {
				pos[k] = i
			}
		}
		switch {
		case pos[k] < 0:
			return nil, &sql.Error{Pos: at, Kind: sql.ErrUnknownColumn, Msg: fmt.Sprintf("table %q has no column %q", table, n)}
		case seen[pos[k]]:
			return nil, &sql.Error{Pos: at, Kind: sql.ErrSyntax, Msg: fmt.Sprintf("column %q is given twice", n)}
		}
		seen[pos[k]] = true
	}
	return pos, nil
}
