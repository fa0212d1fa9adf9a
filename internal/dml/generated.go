package dml

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// generatedColumn reports, for a statement that names column name of
// table t to write it, an error when the column is a generated one (the
// table computes it when read; sql/bind_generated.go), nil otherwise.
func generatedColumn(t any, name, what string, at sql.Pos) error {
	g, ok := t.(sql.GeneratedTable)
	if !ok {
		return nil
	}
	for _, c := range g.Generated() {
		if strings.EqualFold(c.Name, name) {
			return &sql.Error{Pos: at, Kind: sql.ErrUnsupported, Msg: fmt.Sprintf("cannot %s generated column %q: it is computed from the other columns", what, c.Name)}
		}
	}
	return nil
}
