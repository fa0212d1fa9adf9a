package engine

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
)

// hidesTarget refuses a statement that writes a table named as a write
// before it in the WITH: its own queries (UPDATE's and DELETE's rows,
// RETURNING's) name the table, and would read that write's rows.
func hidesTarget(st sql.Statement, writes map[string]planner.Table) error {
	key, pos, _, _ := sql.WriteTarget(st)
	if _, hidden := writes[strings.ToLower(key)]; hidden {
		return &sql.Error{Pos: pos, Kind: sql.ErrUnsupported,
			Msg: fmt.Sprintf("%q names both a statement of the WITH and the table written here: rename the WITH's", key)}
	}
	return nil
}
